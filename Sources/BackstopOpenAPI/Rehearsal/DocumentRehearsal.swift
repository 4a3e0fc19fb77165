import BackstopJSON
import Foundation

#if OpenAPI
    import OpenAPIKit
#else
    #error("BackstopOpenAPI needs Backstop's OpenAPI trait: .package(name: \"Backstop\", …, traits: [\"OpenAPI\"])")
#endif

/// An app's OpenAPI document loaded to be served and rehearsed: each operation where it is, the
/// answer it gives clean (the document's example, else a value generated from the schema for
/// the seed), and the ``OpenAPIContract`` an app's generated client repairs its answers with.
///
/// Made once; then only read, by any number of requests at once. A document that cannot be
/// used throws the contract's ``OpenAPIContractError`` naming where; a hostile one (an alias
/// bomb, a `$ref` cycle with nothing between, 10,000 levels of nesting) is refused as it is.
///
/// Dirtying an answer (``dirtied(_:of:status:contentType:by:)``) needs only the document and the
/// operation: it serves BadBackend's document server and a proxy in front of a real backend alike.
package struct DocumentRehearsal: Sendable {
    /// Where the document came from, as errors name it: a file name.
    package let source: String
    /// The document's `info.title`.
    package let title: String
    /// The seed its generated values were made with.
    package let seed: UInt64
    /// Every operation under `paths`, in the document's order.
    package let operations: [DocumentOperation]
    /// The paths of its `servers` (`/v1` of `https://api.example.com/v1`): a request may start with one.
    package let basePaths: [String]
    /// How many webhooks the document describes: calls the API makes, so none is served.
    package let webhookCount: Int
    /// The contract a generated client repairs this document's answers with.
    package let contract: OpenAPIContract

    /// - Parameters:
    ///   - data: The document: YAML or JSON, OpenAPI 3.0 or 3.1.
    ///   - source: Its name in errors: the file name.
    ///   - seed: The seed of every generated value: the same seed, the same answers.
    package init(data: Data, source: String, seed: UInt64 = 0) throws(OpenAPIContractError) {
        let document = try CompiledDocument.document(data, source: source)
        contract = OpenAPIContract(compiled: try CompiledDocument(document: document, enumFallbacks: [:]), policy: .lenient)
        self.source = source
        self.seed = seed
        title = document.info.title
        webhookCount = document.webhooks.count
        basePaths = document.servers.compactMap { server in
            let path = URLComponents(string: server.urlTemplate.absoluteString)?.path ?? ""
            let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
            return trimmed.isEmpty || trimmed.contains("{") ? nil : trimmed
        }
        let isJSON = data.first(where: { !JSONScanner.isWhitespace($0) }) == UInt8(ascii: "{")
        var operations: [DocumentOperation] = []
        for route in document.routes {
            for endpoint in route.pathItem.endpoints {
                operations.append(
                    try Self.operation(
                        endpoint.operation, method: endpoint.method.rawValue.uppercased(), path: route.path,
                        pathParameters: route.pathItem.parameters, in: document, seed: seed, sortsProperties: isJSON))
            }
        }
        self.operations = operations
    }

    private static func operation(
        _ operation: OpenAPI.Operation, method: String, path: OpenAPI.Path, pathParameters: OpenAPI.Parameter.Array,
        in document: OpenAPI.Document, seed: UInt64, sortsProperties: Bool
    ) throws(OpenAPIContractError) -> DocumentOperation {
        let components = document.components
        let operationID = CompiledDocument.operationID(operation, method: method, path: path.rawValue)
        let segments: [DocumentOperation.Segment] = path.components.map { component in
            component.hasPrefix("{") && component.hasSuffix("}")
                ? .parameter(String(component.dropFirst().dropLast())) : .literal(component)
        }
        var parameters: [String: DocumentParameter] = [:]
        var order: [String] = []
        for maybe in pathParameters + operation.parameters {
            guard let parameter = components[maybe] else {
                throw OpenAPIContractError(.unresolvedReference, at: "\(operationID) parameters", "a parameter's $ref names no component")
            }
            guard let described = Self.parameter(parameter, components: components) else { continue }
            let key = "\(described.location.rawValue) \(described.name)"
            if parameters[key] == nil { order.append(key) }
            parameters[key] = described
        }
        let requirements = operation.security ?? document.security
        var responses: [DocumentResponse] = []
        var envelope: (code: String, codeSchema: JSONSchema, message: String?)?
        let ordered = operation.responses.sorted { Self.rank($0.key) < Self.rank($1.key) }
        for (status, maybeResponse) in ordered {
            guard let response = components[maybeResponse] else {
                throw OpenAPIContractError(
                    .unresolvedReference, at: "\(operationID) \(status.rawValue)", "the response's $ref names no component")
            }
            let code = Self.rank(status).status
            var generator = SampleGenerator(
                components: components, seed: SeededRandom.seed(seed, "\(operationID) \(code)"), sortsProperties: sortsProperties)
            var served = Self.response(response, status: code, components: components, generator: &generator)
            if responses.isEmpty, let schema = served.schema {
                envelope = Self.envelope(of: schema, components: components)
                if let envelope, !served.response.fromExample, case .object(var members)? = served.response.sample,
                    let position = members.firstIndex(where: { $0.0 == envelope.code })
                {
                    // A generated code is arbitrary, and a client reads any code but its success codes as a failure.
                    members[position].1 = Self.successCode(envelope.code, schema: envelope.codeSchema)
                    let clean = served.response
                    served.response = DocumentResponse(
                        status: clean.status, contentType: clean.contentType, sample: .object(members), text: nil, fromExample: false)
                }
            }
            responses.append(served.response)
        }
        var described = DocumentOperation(
            method: method, path: "/" + path.components.joined(separator: "/"), operationID: operationID, segments: segments,
            parameters: order.compactMap { parameters[$0] },
            secured: requirements.contains { !$0.isEmpty }, responses: responses, envelopeCode: envelope?.code,
            envelopeMessage: envelope?.message)
        if let first = ordered.first.flatMap({ components[$0.value] }), described.answer?.fromExample == false,
            let schema = Self.jsonSchema(of: first, components: components)
        {
            let names = segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
            described.echoedParameters = Self.echoed(names, in: schema, components: components)
        }
        return described
    }

    /// The schema of a response's JSON body, as ``response(_:status:components:generator:)`` picks its content.
    private static func jsonSchema(of response: OpenAPI.Response, components: OpenAPI.Components) -> JSONSchema? {
        let contents = Array(response.content)
        guard
            let (type, maybeContent) = contents.first(where: { $0.key.typeAndSubtype.lowercased() == "application/json" })
                ?? contents.first(where: { CompiledDocument.isJSON($0.key.typeAndSubtype.lowercased()) }),
            CompiledDocument.isJSON(type.typeAndSubtype.lowercased()), let content = components[maybeContent]
        else { return nil }
        return content.schema
    }

    /// Where an answer of `schema` carries each of the path parameters `names`: a property of
    /// the answer, else of one of its object members (an envelope's `data`), whose type can hold
    /// a value from a path. Found in the schema's order, so the same document, the same places.
    private static func echoed(_ names: [String], in schema: JSONSchema, components: OpenAPI.Components) -> [EchoedParameter] {
        let top = objectProperties(of: schema, components: components)
        var echoed: [EchoedParameter] = []
        for (index, name) in names.enumerated() {
            let candidates = EchoedParameter.candidates(for: name, isLast: index == names.count - 1)
            var found: EchoedParameter?
            for candidate in candidates {
                if let property = top.first(where: { $0.0 == candidate }), let kind = echoKind(property.1, components: components) {
                    found = EchoedParameter(parameter: name, path: [candidate], kind: kind)
                    break
                }
            }
            if found == nil {
                outer: for (member, memberSchema) in top {
                    let inner = objectProperties(of: memberSchema, components: components)
                    for candidate in candidates {
                        if let property = inner.first(where: { $0.0 == candidate }), let kind = echoKind(property.1, components: components)
                        {
                            found = EchoedParameter(parameter: name, path: [member, candidate], kind: kind)
                            break outer
                        }
                    }
                }
            }
            if let found { echoed.append(found) }
        }
        return echoed
    }

    /// The kind of value a property holds, when a path parameter's text can be one.
    private static func echoKind(_ schema: JSONSchema, components: OpenAPI.Components) -> EchoedParameter.Kind? {
        let schema = resolved(schema, components: components)
        switch schema.value {
        case .integer: return .integer
        case .number: return .number
        case .string:
            let allowed = (schema.allowedValues ?? []).compactMap { $0.value as? String }
            switch schema.formatString ?? "" {
            case "uuid": return .uuid
            case "": return .string(allowed: allowed)
            // A value of another format (a date, say) in a path is unusual: the generated one stays.
            default: return allowed.isEmpty ? nil : .string(allowed: allowed)
            }
        default: return nil
        }
    }

    /// The properties of an object schema, or of an `allOf` of them, with their `$ref`s followed.
    private static func objectProperties(of schema: JSONSchema, components: OpenAPI.Components) -> [(String, JSONSchema)] {
        let root = resolved(schema, components: components)
        let parts: [JSONSchema] =
            if case .all(let parts, _) = root.value { parts.map { resolved($0, components: components) } } else { [root] }
        var properties: [(String, JSONSchema)] = []
        for part in parts {
            if case .object(_, let object) = part.value { properties += object.properties.map { ($0.key, $0.value) } }
        }
        return properties
    }

    /// The order responses are served in: successes first, lowest first; then `default`
    /// (read as 200 when the document gives no success); then the others. With its status.
    private static func rank(_ status: OpenAPI.Response.StatusCode) -> (order: Int, status: Int) {
        switch status.value {
        case .status(let code):
            return (((200..<300).contains(code) ? 0 : 2_000) + code, code)
        case .range(let range):
            let first = (Int(range.rawValue.prefix(1)) ?? 5) * 100
            return ((first == 200 ? 0 : 2_000) + first + 99, first)
        case .default:
            return (1_000, 200)
        }
    }

    /// A response's served body, and the schema it was made from.
    private static func response(
        _ response: OpenAPI.Response, status: Int, components: OpenAPI.Components, generator: inout SampleGenerator
    ) -> (response: DocumentResponse, schema: JSONSchema?) {
        let contents = Array(response.content)
        guard
            let (type, maybeContent) = contents.first(where: { $0.key.typeAndSubtype.lowercased() == "application/json" })
                ?? contents.first(where: { CompiledDocument.isJSON($0.key.typeAndSubtype.lowercased()) }) ?? contents.first,
            let content = components[maybeContent]
        else {
            return (DocumentResponse(status: status, contentType: nil, sample: nil, text: nil, fromExample: false), nil)
        }
        let contentType = type.typeAndSubtype.lowercased()
        var example = content.example
        if example == nil, let first = content.examples?.first?.value {
            example = components[first]?.value?.value
        }
        let isJSON = CompiledDocument.isJSON(contentType)
        if let example {
            if isJSON, let sample = SampleGenerator.sample(example) {
                return (
                    DocumentResponse(status: status, contentType: contentType, sample: sample, text: nil, fromExample: true), content.schema
                )
            }
            if let text = example.value as? String {
                return (
                    DocumentResponse(status: status, contentType: contentType, sample: nil, text: text, fromExample: true), content.schema
                )
            }
        }
        guard isJSON else {
            return (DocumentResponse(status: status, contentType: contentType, sample: nil, text: "", fromExample: false), content.schema)
        }
        let sample = content.schema.map { generator.value(for: $0) } ?? .object([])
        return (DocumentResponse(status: status, contentType: contentType, sample: sample, text: nil, fromExample: false), content.schema)
    }

    /// A parameter in the path or the query, as far as its schema can be checked; `nil` for one
    /// elsewhere (headers and cookies are not checked).
    private static func parameter(_ parameter: OpenAPI.Parameter, components: OpenAPI.Components) -> DocumentParameter? {
        let location: DocumentParameter.Location
        switch parameter.location {
        case .path: location = .path
        case .query: location = .query
        default: return nil
        }
        var schema: JSONSchema?
        if case .a(let context) = parameter.schemaOrContent { schema = components[context.schema] }
        schema = schema.map { resolved($0, components: components) }
        var isList = false
        if case .array(_, let array)? = schema?.value {
            isList = true
            schema = array.items.map { resolved($0, components: components) }
        }
        let kind: DocumentParameter.Kind =
            switch schema?.value {
            case .integer?: .integer
            case .number?: .number
            case .boolean?: .boolean
            case .string?: .string
            default: .any
            }
        let allowed = kind == .string ? (schema?.allowedValues ?? []).compactMap { $0.value as? String } : []
        return DocumentParameter(
            name: parameter.name, location: location, required: parameter.required || location == .path, kind: kind,
            allowed: allowed, isList: isList)
    }

    /// `schema` with its `$ref`s followed, at most 16 of them.
    static func resolved(_ schema: JSONSchema, components: OpenAPI.Components) -> JSONSchema {
        var schema = schema
        for _ in 0..<16 {
            guard case .reference(let reference, _) = schema.value, let name = reference.name,
                let target = components.schemas[.init(stringLiteral: name)]
            else { break }
            schema = target
        }
        return schema
    }

    /// The properties of an answer that carry an app-wide code (with its schema) and its
    /// message, when its schema (an object, or an `allOf` of them) has an integer one of the
    /// names servers use.
    private static func envelope(
        of schema: JSONSchema, components: OpenAPI.Components
    ) -> (code: String, codeSchema: JSONSchema, message: String?)? {
        let properties = objectProperties(of: schema, components: components)
        for name in envelopeCodeNames {
            guard let property = properties.first(where: { $0.0 == name }) else { continue }
            let codeSchema = resolved(property.1, components: components)
            guard case .integer = codeSchema.value else { continue }
            return (name, codeSchema, ["message", "msg", "errorMessage", "detail"].first { name in properties.contains { $0.0 == name } })
        }
        return nil
    }

    /// The names of the properties that carry an app-wide code, in the order they are looked for.
    private static let envelopeCodeNames = ["code", "statusCode", "errorCode", "resultCode", "status"]

    /// The code a generated answer carries in its code field `name`: the schema's own `example`,
    /// `default` or first `enum` value when it has one, else the code a reader most likely
    /// takes for success and the schema allows: 0 for `errorCode` (no error), 200 for the
    /// others, as BadBackend's own envelopes send, the other of the two when the schema's
    /// bounds leave that one out.
    static func successCode(_ name: String, schema: JSONSchema) -> SampleJSON {
        let given = [schema.examples.first, schema.defaultValue, schema.allowedValues?.first].lazy.compactMap { $0 }
        if let value = given.compactMap(SampleGenerator.sample).first { return value }
        let preferred = name == "errorCode" ? [0, 200] : [200, 0]
        guard case .integer(_, let context) = schema.value else { return .number(String(preferred[0])) }
        let fits = preferred.first { code in
            let aboveMinimum = context.minimum.map { $0.exclusive ? code > $0.value : code >= $0.value } ?? true
            let belowMaximum = context.maximum.map { $0.exclusive ? code < $0.value : code <= $0.value } ?? true
            return aboveMinimum && belowMaximum
        }
        return .number(String(fits ?? context.minimum.map { $0.exclusive ? $0.value &+ 1 : $0.value } ?? preferred[0]))
    }
}
