import Foundation

#if OpenAPI
    import OpenAPIKit
#else
    #error("BackstopOpenAPI needs Backstop's OpenAPI trait: .package(name: \"Backstop\", …, traits: [\"OpenAPI\"])")
#endif

/// Turns OpenAPIKit's schemas into the ``CompiledSchema`` table, each component once: a
/// component's index is taken before its body is compiled, so recursive schemas refer to it.
struct SchemaCompiler {
    let components: OpenAPI.Components
    let enumFallbacks: [String: String]
    private(set) var schemas: [CompiledSchema] = []
    private var componentIndex: [String: Int] = [:]

    init(components: OpenAPI.Components, enumFallbacks: [String: String]) {
        self.components = components
        self.enumFallbacks = enumFallbacks
    }

    /// The index of `schema`'s compiled form; `location` names it in errors.
    mutating func compile(_ schema: JSONSchema, at location: String, name: String? = nil) throws(OpenAPIContractError) -> Int {
        if case .reference(let reference, _) = schema.value {
            return try component(reference, at: location)
        }
        let index = schemas.count
        schemas.append(CompiledSchema(kind: .any, name: name ?? "value"))
        schemas[index] = try body(of: schema, at: location, name: name)
        return index
    }

    private mutating func component(_ reference: JSONReference<JSONSchema>, at location: String) throws(OpenAPIContractError) -> Int {
        guard let name = reference.name, case .internal = reference, let target = components.schemas[.init(stringLiteral: name)] else {
            throw OpenAPIContractError(
                .unresolvedReference, at: location, "$ref \(reference.absoluteString) names no schema of the document's components")
        }
        if let index = componentIndex[name] { return index }
        let index = schemas.count
        componentIndex[name] = index
        schemas.append(CompiledSchema(kind: .any, name: name))
        schemas[index] = try body(of: target, at: "#/components/schemas/\(name)", name: name)
        return index
    }

    /// The compiled form of `schema` itself (not a reference).
    private mutating func body(of schema: JSONSchema, at location: String, name: String?) throws(OpenAPIContractError) -> CompiledSchema {
        var compiled: CompiledSchema
        switch schema.value {
        case .null: compiled = CompiledSchema(kind: .null, name: name ?? "null")
        case .boolean: compiled = CompiledSchema(kind: .boolean, name: name ?? "boolean")
        case .integer: compiled = CompiledSchema(kind: .integer, name: name ?? "integer")
        case .number: compiled = CompiledSchema(kind: .number, name: name ?? "number")
        case .string:
            compiled = CompiledSchema(kind: .string, name: name ?? "string")
            compiled.isDateTime = schema.formatString == "date-time"
            if let values = schema.allowedValues {
                let texts = values.compactMap { $0.value as? String }
                compiled.enumValues = texts.map { Array($0.utf8) }
                if !texts.isEmpty {
                    if name == nil { compiled.name = "enum" }
                    compiled.fallback = try fallback(of: schema, values: texts, name: name, at: location)
                }
            }
        case .object(_, let object):
            compiled = CompiledSchema(kind: .object, name: name ?? "object")
            let required = Set(object.requiredProperties)
            for (property, propertySchema) in object.properties {
                let index = try compile(propertySchema, at: "\(location).\(property)")
                compiled.properties.append(
                    .init(name: Array(property.utf8), text: property, schema: index, required: required.contains(property)))
            }
            if case .b(let additional)? = object.additionalProperties {
                compiled.additional = try compile(additional, at: "\(location).additionalProperties")
            }
        case .array(_, let array):
            compiled = CompiledSchema(kind: .array, name: name ?? "array")
            if let items = array.items { compiled.items = try compile(items, at: "\(location)[]") }
        case .all(let parts, _):
            compiled = try merged(parts, at: location, name: name)
        case .one(let parts, _), .any(let parts, _):
            compiled = CompiledSchema(kind: .alternatives, name: name ?? "oneOf")
            for (offset, part) in parts.enumerated() {
                let index = try compile(part, at: "\(location)/oneOf/\(offset)")
                if schemas[index].kind == .null { compiled.nullable = true } else { compiled.alternatives.append(index) }
            }
            if compiled.alternatives.isEmpty { compiled.kind = .any }
        case .reference(let reference, _):
            compiled = schemas[try component(reference, at: location)]
        case .not, .fragment:
            compiled = CompiledSchema(kind: .any, name: name ?? "value")
        }
        compiled.nullable = compiled.nullable || schema.nullable
        if let value = schema.defaultValue {
            compiled.defaultJSON = (try? JSONEncoder().encode(value)).map { Array($0) }
        }
        return compiled
    }

    /// `allOf`: the objects' properties together, as the generator's composed struct reads them;
    /// a single part is that part; anything else reads as any value.
    private mutating func merged(_ parts: [JSONSchema], at location: String, name: String?) throws(OpenAPIContractError) -> CompiledSchema {
        var indices: [Int] = []
        for (offset, part) in parts.enumerated() { indices.append(try compile(part, at: "\(location)/allOf/\(offset)")) }
        if indices.count == 1 {
            var single = schemas[indices[0]]
            if let name { single.name = name }
            return single
        }
        var compiled = CompiledSchema(kind: .object, name: name ?? "allOf")
        for index in indices {
            let part = schemas[index]
            switch part.kind {
            case .object:
                for property in part.properties {
                    if let existing = compiled.properties.firstIndex(where: { $0.text == property.text }) {
                        compiled.properties[existing].required = compiled.properties[existing].required || property.required
                    } else {
                        compiled.properties.append(property)
                    }
                }
                if compiled.additional == nil { compiled.additional = part.additional }
            case .any: continue
            default: return CompiledSchema(kind: .any, name: name ?? "allOf")
            }
        }
        return compiled
    }

    /// The fallback of a string enum: the app's, else the document's extension, else its own `unknown` or `other`.
    private func fallback(of schema: JSONSchema, values: [String], name: String?, at location: String) throws(OpenAPIContractError)
        -> String?
    {
        let named: String?
        if let name, let app = enumFallbacks[name] {
            named = app
        } else if let value = schema.vendorExtensions[OpenAPIContract.fallbackExtension]?.value {
            guard let text = value as? String else {
                throw OpenAPIContractError(.invalidSchema, at: location, "\(OpenAPIContract.fallbackExtension) must be a string")
            }
            named = text
        } else {
            return values.first { $0 == "unknown" } ?? values.first { $0 == "other" }
        }
        guard let named, values.contains(named) else {
            throw OpenAPIContractError(
                .invalidSchema, at: location,
                "fallback \"\(named ?? "")\" is not one of the enum's values (\(values.joined(separator: ", ")))")
        }
        return named
    }
}
