import Backstop
import BackstopJSON
import Foundation

#if OpenAPI
    import OpenAPIKit
    import OpenAPIKit30
    import OpenAPIKitCompat
    import Yams
#else
    #error("BackstopOpenAPI needs Backstop's OpenAPI trait: .package(name: \"Backstop\", …, traits: [\"OpenAPI\"])")
#endif

/// An OpenAPI document compiled for repairs: each operation's JSON responses and the schema
/// table they index. Built once; only read after.
struct CompiledDocument: Sendable {
    /// What one response holds: its JSON content types' root schemas; none when it has no body.
    struct Contents: Sendable {
        var types: [(type: String, schema: Int)]
        /// The schema of `application/json`, which nearly every response has, found without comparing text.
        var json: Int?

        init(_ types: [(type: String, schema: Int)]) {
            self.types = types
            json = types.first { $0.type == "application/json" }?.schema
        }
    }

    /// The response schemas of one operation, by status.
    struct Responses: Sendable {
        var byStatus: [Int: Contents] = [:]
        /// `2XX` and the like, by first digit.
        var byRange: [Int: Contents] = [:]
        var byDefault: Contents?
    }

    /// What the document says of one response.
    enum Lookup {
        case schema(Int)
        case noBody
        case undescribed(String)
    }

    var schemas: [CompiledSchema]
    /// ``schemas`` as the clean path reads them.
    var flat: FlatSchemas
    var operations: [String: Responses]

    init(data: Data, source: String, enumFallbacks: [String: String]) throws(OpenAPIContractError) {
        try self.init(document: try Self.document(data, source: source), enumFallbacks: enumFallbacks)
    }

    /// The document already read, as ``document(_:source:)`` reads it.
    init(document: OpenAPIKit.OpenAPI.Document, enumFallbacks: [String: String]) throws(OpenAPIContractError) {
        for name in enumFallbacks.keys.sorted() where document.components.schemas[.init(stringLiteral: name)] == nil {
            throw OpenAPIContractError(
                .invalidSchema, at: "enumFallbacks", "names \(name), which is not a schema of the document's components")
        }
        var compiler = SchemaCompiler(components: document.components, enumFallbacks: enumFallbacks)
        var operations: [String: Responses] = [:]
        for route in document.routes {
            for endpoint in route.pathItem.endpoints {
                let operationID = Self.operationID(endpoint.operation, method: endpoint.method.rawValue, path: route.path.rawValue)
                var responses = Responses()
                for (status, maybeResponse) in endpoint.operation.responses {
                    let location = "\(operationID) \(status.rawValue)"
                    guard let response = document.components[maybeResponse] else {
                        throw OpenAPIContractError(.unresolvedReference, at: location, "the response's $ref names no component")
                    }
                    var contents: [(type: String, schema: Int)] = []
                    for (contentType, maybeContent) in response.content {
                        let type = contentType.typeAndSubtype.lowercased()
                        guard Self.isJSON(type) else { continue }
                        guard let content = document.components[maybeContent] else {
                            throw OpenAPIContractError(
                                .unresolvedReference, at: "\(location) \(type)", "the content's $ref names no component")
                        }
                        // A JSON body without a schema is any JSON: only its byte-level dirt is repaired.
                        let root = try compiler.compile(content.schema ?? .fragment(.init()), at: "\(location) \(type)")
                        contents.append((type: type, schema: root))
                    }
                    switch status.value {
                    case .status(let code): responses.byStatus[code] = Contents(contents)
                    case .range(let range): responses.byRange[Int(range.rawValue.prefix(1)) ?? 0] = Contents(contents)
                    case .default: responses.byDefault = Contents(contents)
                    }
                }
                operations[operationID] = responses
            }
        }
        schemas = compiler.schemas
        flat = FlatSchemas(compiler.schemas)
        self.operations = operations
    }

    /// The ID a generated client passes for an operation: its `operationId`, else what
    /// swift-openapi-generator makes of its method and path (`get/pets/{petId}`).
    static func operationID(_ operation: OpenAPIKit.OpenAPI.Operation, method: String, path: String) -> String {
        operation.operationId ?? "\(method.lowercased())\(path)"
    }

    /// The root schema of `operationID`'s response with `status` and `contentType`.
    func schema(operationID: String, status: Int, contentType: String?) -> Lookup {
        guard let responses = operations[operationID] else {
            return .undescribed("the document has no operation \(operationID)")
        }
        guard let contents = responses.byStatus[status] ?? responses.byRange[status / 100] ?? responses.byDefault else {
            return .undescribed("the document describes no response \(status) of \(operationID)")
        }
        guard let first = contents.types.first else { return .noBody }
        if contentType.map(Self.isApplicationJSON) ?? true {
            // `application/json` as most servers send it (or no type, read as it): its schema, else
            // the first JSON type the document gives.
            return .schema(contents.json ?? first.schema)
        }
        let type: String
        if let contentType, !contentType.isEmpty,
            contentType.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ";") && !(0x41...0x5A).contains($0) })
        {
            // Already what the lines below would make of it (`application/json` as most servers send it), without their cost.
            type = contentType
        } else {
            type =
                (contentType ?? "application/json").split(separator: ";").first.map {
                    $0.trimmingCharacters(in: .whitespaces).lowercased()
                } ?? "application/json"
        }
        if let match = contents.types.first(where: { $0.type == type }) { return .schema(match.schema) }
        guard Self.isJSON(type) else {
            return .undescribed("the response \(status) of \(operationID) is \(type), not JSON")
        }
        // `application/json; charset=utf-8` against `application/json`, or a `+json` type the document spells otherwise.
        return .schema(first.schema)
    }

    /// Whether `contentType` is `application/json` written as such: its bytes compared as they are.
    @inline(__always)
    private static func isApplicationJSON(_ contentType: String) -> Bool {
        let canonical: StaticString = "application/json"
        let length = canonical.utf8CodeUnitCount
        return contentType.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.count == length, let base = bytes.baseAddress else { return false }
            return memcmp(base, canonical.utf8Start, length) == 0
        } ?? (contentType == "application/json")
    }

    /// Runs `body` with a check of `document` against these schemas, every table lent as a pointer.
    func withCheck<R>(of document: JSONDocument, _ body: (SchemaCheck) -> R) -> R {
        withExtendedLifetime(document) {
            schemas.withUnsafeBufferPointer { schemas in
                flat.nodes.withUnsafeBufferPointer { nodes in
                    flat.properties.withUnsafeBufferPointer { properties in
                        flat.names.withUnsafeBufferPointer { names in
                            flat.alternatives.withUnsafeBufferPointer { alternatives in
                                body(
                                    SchemaCheck(
                                        document: document, tape: document.finishedTape, base: document.base, nodes: nodes,
                                        properties: properties, names: names,
                                        alternatives: alternatives, schemas: schemas))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Whether `body` is strict JSON that fits schema `root` with nothing to repair, told in one
    /// pass over its bytes (``StreamingCheck``); `false` also when that pass is not sure.
    func streamingFits(_ body: Data, root: Int) -> Bool {
        body.withUnsafeBytes { raw in
            guard let bytes = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
            return schemas.withUnsafeBufferPointer { schemas in
                flat.nodes.withUnsafeBufferPointer { nodes in
                    flat.properties.withUnsafeBufferPointer { properties in
                        flat.names.withUnsafeBufferPointer { names in
                            flat.alternatives.withUnsafeBufferPointer { alternatives in
                                var check = StreamingCheck(
                                    bytes: bytes, count: raw.count, nodes: nodes, properties: properties, names: names,
                                    alternatives: alternatives, schemas: schemas)
                                return check.bodyFits(root)
                            }
                        }
                    }
                }
            }
        }
    }

    static func isJSON(_ type: String) -> Bool {
        type == "application/json" || type.hasSuffix("+json")
    }

    /// The document as OpenAPI 3.1, whichever of 3.0 and 3.1 it is, from YAML or JSON.
    static func document(_ data: Data, source: String) throws(OpenAPIContractError) -> OpenAPIKit.OpenAPI.Document {
        struct Version: Decodable { var openapi: String }
        let isJSON = data.first(where: { !JSONScanner.isWhitespace($0) }) == UInt8(ascii: "{")
        if isJSON, let depth = jsonDepth(data), depth > maximumDepth {
            throw tooDeep(depth, source: source)
        }
        let yaml = isJSON ? nil : try yamlRoot(data, source: source)
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            if let yaml { return try YAMLDecoder().decode(type, from: yaml) }
            return try JSONDecoder().decode(type, from: data)
        }
        let version: String
        do {
            version = try decode(Version.self).openapi
        } catch {
            throw OpenAPIContractError(.notOpenAPI, at: source, "is not a \(isJSON ? "JSON" : "YAML") OpenAPI document: \(error)")
        }
        do {
            if version.hasPrefix("3.0") {
                return try decode(OpenAPIKit30.OpenAPI.Document.self).convert(to: .v3_1_0)
            }
            return try decode(OpenAPIKit.OpenAPI.Document.self)
        } catch {
            throw OpenAPIContractError(
                .notOpenAPI, at: source, "is not a valid OpenAPI \(version) document: \(OpenAPIKit.OpenAPI.Error(from: error))")
        }
    }

    /// The YAML document's root node, composed without expanding its aliases (an alias is the
    /// node it names, shared), and refused when reading its aliases as their nodes, as decoding
    /// does, would add more than ``OpenAPIContract/maximumAliasExpansion`` nodes or as many as it has.
    private static func yamlRoot(_ data: Data, source: String) throws(OpenAPIContractError) -> Node {
        let parser: Parser
        let root: Node?
        do {
            guard let text = String(data: data, encoding: .utf8) else { throw YamlError.dataCouldNotBeDecoded(encoding: .utf8) }
            // As `YAMLDecoder` reads text: only merge keys resolved, every other scalar kept as written.
            parser = try Parser(yaml: text, resolver: Resolver.basic.appending(.merge))
            root = try parser.singleRoot()
        } catch {
            // The parser's message quotes the line it stopped on, which may be a megabyte long:
            // cut as a line is, but kept unescaped, as `description` escapes it.
            let message = UntrustedText.unescaped(OneLine.text("\(error)", limit: 300))
            throw OpenAPIContractError(.notOpenAPI, at: source, "is not a YAML OpenAPI document: \(message)")
        }
        guard let root else { throw OpenAPIContractError(.notOpenAPI, at: source, "is not a YAML OpenAPI document: it is empty") }
        // The parser holds the anchors its nodes name weakly: it lives while they are counted.
        let (expanded, own, depth) = withExtendedLifetime(parser) { nodeCounts(root) }
        if depth > maximumDepth { throw tooDeep(depth, source: source) }
        if expanded - own > max(OpenAPIContract.maximumAliasExpansion, own) {
            throw OpenAPIContractError(
                .tooLarge, at: source,
                "has \(own) YAML nodes, and its aliases would add \(expanded - own >= cappedCount ? "billions" : "\(expanded - own)") more")
        }
        return root
    }

    /// Counts beyond this are not told apart.
    private static let cappedCount = Int(Int32.max)

    /// The number of nodes under `root` with each alias read as the node it names, and without:
    /// one pass over the nodes as written, without recursion. An anchored node's count is kept
    /// when it is first met, which is where it is written, as an alias may only follow its anchor.
    static func nodeCounts(_ root: Node) -> (expanded: Int, own: Int, depth: Int) {
        struct Frame {
            var children: [Node]
            var next = 0
            var count = 1
            var anchor: ObjectIdentifier?

            init(_ node: Node) {
                switch node {
                case .scalar(let scalar):
                    children = []
                    anchor = scalar.anchor.map(ObjectIdentifier.init)
                case .mapping(let mapping):
                    children = []
                    children.reserveCapacity(mapping.count * 2)
                    for (key, value) in mapping { children.append(contentsOf: [key, value]) }
                    anchor = mapping.anchor.map(ObjectIdentifier.init)
                case .sequence(let sequence):
                    children = Array(sequence)
                    anchor = sequence.anchor.map(ObjectIdentifier.init)
                case .alias:
                    children = []
                }
            }
        }
        func anchor(of node: Node) -> ObjectIdentifier? {
            switch node {
            case .scalar(let scalar): scalar.anchor.map(ObjectIdentifier.init)
            case .mapping(let mapping): mapping.anchor.map(ObjectIdentifier.init)
            case .sequence(let sequence): sequence.anchor.map(ObjectIdentifier.init)
            case .alias: nil
            }
        }
        var counted: [ObjectIdentifier: Int] = [:]
        var own = 1
        var stack = [Frame(root)]
        var depth = 1
        while var top = stack.popLast() {
            if top.next < top.children.count {
                let child = top.children[top.next]
                top.next += 1
                if let anchor = anchor(of: child), let count = counted[anchor] {
                    top.count = min(top.count + count, cappedCount)
                    stack.append(top)
                } else {
                    own += 1
                    stack.append(top)
                    stack.append(Frame(child))
                    depth = max(depth, stack.count)
                }
            } else {
                if let anchor = top.anchor { counted[anchor] = top.count }
                guard !stack.isEmpty else { return (top.count, own, depth) }
                stack[stack.count - 1].count = min(stack[stack.count - 1].count + top.count, cappedCount)
            }
        }
        return (own, own, depth)
    }

    /// How deeply a document's YAML nodes or JSON values may nest. Reading a document is
    /// recursive (Codable), one set of frames a level: 10,000 levels would overflow the stack of
    /// any thread, while a real document nests a few dozen. 400 levels read on iOS's main thread.
    static let maximumDepth = 400

    private static func tooDeep(_ depth: Int, source: String) -> OpenAPIContractError {
        OpenAPIContractError(
            .tooLarge, at: source, "nests \(depth) levels deep; a document may nest at most \(maximumDepth)")
    }

    /// How deeply JSON `data` nests its arrays and objects, counted in one pass over its bytes
    /// (strings skipped); `nil` when it is empty.
    static func jsonDepth(_ data: Data) -> Int? {
        guard !data.isEmpty else { return nil }
        var depth = 0
        var deepest = 0
        JSONStructure.forEachStructuralByte(in: data) { _, byte in
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
