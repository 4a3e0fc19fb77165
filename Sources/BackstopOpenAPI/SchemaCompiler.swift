import Foundation

#if OpenAPI
    import OpenAPIKit
#else
    #error("BackstopOpenAPI needs Backstop's OpenAPI trait: .package(name: \"Backstop\", …, traits: [\"OpenAPI\"])")
#endif

/// Turns OpenAPIKit's schemas into the ``CompiledSchema`` table, each component once, without
/// recursion: an app may make its contract on a thread with a small stack (iOS's main thread,
/// 512 KiB), and a document may chain its components as long as it likes.
///
/// A schema is given its index when it is first met and compiled from a work list, so a
/// property, an item or `additionalProperties` needs only that index, and recursive schemas
/// (a tree of regions) refer to themselves. What a schema's own form is made of (the `$ref` it
/// is, the parts of its `allOf`, `oneOf` or `anyOf`) is compiled first, depth first on a stack
/// of its own; a cycle there, with no property or item between, describes no value and is refused.
struct SchemaCompiler {
    let components: OpenAPI.Components
    let enumFallbacks: [String: String]
    private(set) var schemas: [CompiledSchema] = []
    private var componentIndex: [String: Int] = [:]
    /// Each schema's source and state, by index; the source is let go once compiled.
    private var sources: [Source?] = []
    private var states: [State] = []
    /// Schemas given an index, not yet compiled.
    private var waiting: [Int] = []
    /// A discriminated `oneOf`'s alternatives, made once everything they copy is compiled.
    private var constraints: [Constraint] = []

    private enum State {
        case waiting, compiling, compiled
    }

    private struct Source {
        var schema: JSONSchema
        var location: String
        var name: String?
    }

    /// A copy of component `source` whose `property` must be one of `values`: the alternative a
    /// discriminator chooses, so that a check for the first alternative that fits agrees with it.
    private struct Constraint {
        var index: Int
        var source: Int
        var property: String
        var values: [String]
    }

    /// One step of the depth-first walk: a schema and the parts its form is made of.
    private struct Frame {
        var index: Int
        var parts: [Int]
        var next = 0
    }

    init(components: OpenAPI.Components, enumFallbacks: [String: String]) {
        self.components = components
        self.enumFallbacks = enumFallbacks
    }

    /// The index of `schema`'s compiled form, with everything it refers to compiled; `location`
    /// names it in errors.
    mutating func compile(_ schema: JSONSchema, at location: String) throws(OpenAPIContractError) -> Int {
        let root = try reserve(schema, at: location)
        while let next = waiting.popLast() {
            if states[next] == .waiting { try compileDepthFirst(next) }
        }
        constrainAlternatives()
        return root
    }

    // MARK: Indices

    /// `schema`'s index: a component's own when it is a `$ref`, else a new one, compiled later.
    private mutating func reserve(_ schema: JSONSchema, at location: String) throws(OpenAPIContractError) -> Int {
        if case .reference(let reference, _) = schema.value {
            return try component(reference, at: location)
        }
        return add(schema, at: location, name: nil)
    }

    private mutating func add(_ schema: JSONSchema, at location: String, name: String?) -> Int {
        let index = schemas.count
        schemas.append(CompiledSchema(kind: .any, name: name ?? "value"))
        sources.append(Source(schema: schema, location: location, name: name))
        states.append(.waiting)
        waiting.append(index)
        return index
    }

    private mutating func component(_ reference: JSONReference<JSONSchema>, at location: String) throws(OpenAPIContractError) -> Int {
        guard let name = reference.name, case .internal = reference else {
            throw OpenAPIContractError(
                .unresolvedReference, at: location, "$ref \(reference.absoluteString) names no schema of the document's components")
        }
        return try component(named: name, written: reference.absoluteString, at: location)
    }

    private mutating func component(named name: String, written: String, at location: String) throws(OpenAPIContractError) -> Int {
        if let index = componentIndex[name] { return index }
        guard let target = components.schemas[.init(stringLiteral: name)] else {
            throw OpenAPIContractError(.unresolvedReference, at: location, "$ref \(written) names no schema of the document's components")
        }
        let index = add(target, at: "#/components/schemas/\(name)", name: name)
        componentIndex[name] = index
        return index
    }

    // MARK: The walk

    /// Compiles schema `root` after the parts its form is made of, each of them after its own.
    private mutating func compileDepthFirst(_ root: Int) throws(OpenAPIContractError) {
        states[root] = .compiling
        var stack = [Frame(index: root, parts: try parts(of: root))]
        while let top = stack.last {
            if top.next < top.parts.count {
                stack[stack.count - 1].next += 1
                let part = top.parts[top.next]
                switch states[part] {
                case .compiled: continue
                case .compiling: throw cycle(closingAt: part, stack)
                case .waiting:
                    states[part] = .compiling
                    stack.append(Frame(index: part, parts: try parts(of: part)))
                }
            } else {
                schemas[top.index] = try body(of: top.index, parts: top.parts)
                states[top.index] = .compiled
                sources[top.index] = nil
                stack.removeLast()
            }
        }
    }

    /// The schemas schema `index`'s form is made of, each given its index: the component its
    /// `$ref` names; its `allOf`'s parts; its `oneOf`'s or `anyOf`'s alternatives, then the
    /// components its discriminator maps.
    private mutating func parts(of index: Int) throws(OpenAPIContractError) -> [Int] {
        guard let source = sources[index] else { return [] }
        let location = source.location
        var indices: [Int] = []
        switch source.schema.value {
        case .reference(let reference, _):
            indices.append(try component(reference, at: location))
        case .all(let parts, _):
            for (offset, part) in parts.enumerated() { indices.append(try reserve(part, at: "\(location)/allOf/\(offset)")) }
        case .one(let parts, _):
            for (offset, part) in parts.enumerated() { indices.append(try reserve(part, at: "\(location)/oneOf/\(offset)")) }
            if let discriminator = source.schema.discriminator {
                for (value, target) in discriminator.mapping ?? [:] {
                    indices.append(try mapped(target, at: "\(location)/discriminator/mapping/\(value)"))
                }
            }
        case .any(let parts, _):
            for (offset, part) in parts.enumerated() { indices.append(try reserve(part, at: "\(location)/anyOf/\(offset)")) }
        default:
            break
        }
        return indices
    }

    /// The component a discriminator's mapping names: `#/components/schemas/Card`, or `Card`.
    private mutating func mapped(_ target: String, at location: String) throws(OpenAPIContractError) -> Int {
        let prefix = "#/components/schemas/"
        let name = target.hasPrefix(prefix) ? String(target.dropFirst(prefix.count)) : target
        guard !name.isEmpty, !name.contains("/"), !name.contains("#") else {
            throw OpenAPIContractError(.unresolvedReference, at: location, "\(target) names no schema of the document's components")
        }
        return try component(named: name, written: target, at: location)
    }

    /// The error for a cycle of `$ref`s, `allOf`s and alternatives that closes at `part`.
    private func cycle(closingAt part: Int, _ stack: [Frame]) -> OpenAPIContractError {
        let start = stack.firstIndex { $0.index == part } ?? 0
        let names = stack[start...].map { sources[$0.index]?.location ?? "?" } + [sources[part]?.location ?? "?"]
        return OpenAPIContractError(
            .invalidSchema, at: names[0],
            "is its own value through \(names.joined(separator: " → ")), with no property or item between: no value fits it")
    }

    // MARK: Forms

    /// The compiled form of schema `index`, whose `parts` are compiled.
    private mutating func body(of index: Int, parts: [Int]) throws(OpenAPIContractError) -> CompiledSchema {
        guard let source = sources[index] else { return schemas[index] }
        let (schema, location, name) = (source.schema, source.location, source.name)
        var compiled: CompiledSchema
        switch schema.value {
        case .null: compiled = CompiledSchema(kind: .null, name: name ?? "null")
        case .boolean: compiled = CompiledSchema(kind: .boolean, name: name ?? "boolean")
        case .integer:
            compiled = CompiledSchema(kind: .integer, name: name ?? "integer")
            if schema.formatString == "int32" { compiled.format = .int32 }
        case .number:
            compiled = CompiledSchema(kind: .number, name: name ?? "number")
            if schema.formatString == "float" { compiled.format = .float }
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
                let index = try reserve(propertySchema, at: "\(location).\(property)")
                compiled.properties.append(
                    .init(name: Array(property.utf8), text: property, schema: index, required: required.contains(property)))
            }
            if case .b(let additional)? = object.additionalProperties {
                compiled.additional = try reserve(additional, at: "\(location).additionalProperties")
            }
        case .array(_, let array):
            compiled = CompiledSchema(kind: .array, name: name ?? "array")
            if let items = array.items { compiled.items = try reserve(items, at: "\(location)[]") }
        case .all:
            compiled = merged(parts, name: name)
        case .one(let alternatives, _):
            compiled = alternativesForm(parts, name: name)
            if let discriminator = schema.discriminator {
                discriminate(&compiled, alternatives, parts, by: discriminator)
            }
        case .any:
            compiled = alternativesForm(parts, name: name)
        case .reference:
            compiled = parts.first.map { schemas[$0] } ?? CompiledSchema(kind: .any, name: name ?? "value")
        case .not, .fragment:
            compiled = CompiledSchema(kind: .any, name: name ?? "value")
        }
        compiled.nullable = compiled.nullable || schema.nullable
        if let value = schema.defaultValue {
            compiled.defaultJSON = (try? JSONEncoder().encode(value)).map { Array($0) }
        }
        return compiled
    }

    /// `oneOf` or `anyOf`: the value must fit one of `parts`. A `null` part makes it nullable;
    /// a part that is itself alternatives (and not discriminated) gives its own, in order, so
    /// that a check or a rewrite never goes deeper than one level of alternatives at a value.
    private func alternativesForm(_ parts: [Int], name: String?) -> CompiledSchema {
        var compiled = CompiledSchema(kind: .alternatives, name: name ?? "oneOf")
        for part in parts {
            let schema = schemas[part]
            switch schema.kind {
            case .null:
                compiled.nullable = true
            case .alternatives where schema.discriminator == nil:
                compiled.alternatives.append(contentsOf: schema.alternatives)
                compiled.nullable = compiled.nullable || schema.nullable
            default:
                compiled.alternatives.append(part)
            }
        }
        if compiled.alternatives.isEmpty { compiled.kind = .any }
        return compiled
    }

    /// A `oneOf`'s discriminator, read as the generator reads it: each value of the mapping names
    /// its component; each component among the alternatives that the mapping does not name
    /// answers to its name and to its `$ref`; inline alternatives are not considered. Each
    /// alternative becomes a copy of its component whose discriminator property must be one of
    /// its values (made by ``constrainAlternatives()``).
    private mutating func discriminate(
        _ compiled: inout CompiledSchema, _ alternatives: [JSONSchema], _ parts: [Int], by discriminator: OpenAPI.Discriminator
    ) {
        var cases: [(value: String, component: Int)] = []
        let mapping = discriminator.mapping ?? [:]
        for (offset, entry) in mapping.enumerated() where alternatives.count + offset < parts.count {
            cases.append((entry.key, parts[alternatives.count + offset]))
        }
        let mapped = Set(cases.map(\.component))
        for (offset, alternative) in alternatives.enumerated() {
            guard case .reference(let reference, _) = alternative.value, let name = reference.name, !mapped.contains(parts[offset])
            else { continue }
            cases.append((name, parts[offset]))
            cases.append(("#/components/schemas/\(name)", parts[offset]))
        }
        guard !cases.isEmpty else { return }
        var copies: [Int: Int] = [:]
        var order: [Int] = []
        for (value, component) in cases {
            if let copy = copies[component] {
                if let position = constraints.firstIndex(where: { $0.index == copy }) { constraints[position].values.append(value) }
                continue
            }
            let copy = schemas.count
            schemas.append(CompiledSchema(kind: .any, name: schemas[component].name))
            sources.append(nil)
            states.append(.compiled)
            copies[component] = copy
            order.append(copy)
            constraints.append(Constraint(index: copy, source: component, property: discriminator.propertyName, values: [value]))
        }
        compiled.kind = .alternatives
        compiled.alternatives = order
        compiled.discriminator = .init(
            property: discriminator.propertyName, cases: cases.compactMap { value, component in copies[component].map { (value, $0) } })
    }

    /// Fills each discriminated alternative: its component's form, its discriminator property
    /// required and one of the values that choose it (and of the component's own enum, if any).
    /// A component that is not an object is copied as it is.
    private mutating func constrainAlternatives() {
        for constraint in constraints {
            var copy = schemas[constraint.source]
            guard copy.kind == .object else {
                schemas[constraint.index] = copy
                continue
            }
            var value = CompiledSchema(kind: .string, name: "string")
            value.enumValues = constraint.values.map { Array($0.utf8) }
            if let position = copy.properties.firstIndex(where: { $0.text == constraint.property }) {
                let own = schemas[copy.properties[position].schema]
                value.name = own.name
                if own.kind == .string && !own.enumValues.isEmpty { value.enumValues.removeAll { !own.enumValues.contains($0) } }
                copy.properties[position].schema = schemas.count
                copy.properties[position].required = true
            } else {
                copy.properties.append(
                    .init(name: Array(constraint.property.utf8), text: constraint.property, schema: schemas.count, required: true))
            }
            schemas.append(value)
            sources.append(nil)
            states.append(.compiled)
            schemas[constraint.index] = copy
        }
        constraints = []
    }

    /// `allOf`: the objects' properties together, as the generator's composed struct reads them;
    /// a single part is that part; anything else reads as any value.
    private func merged(_ parts: [Int], name: String?) -> CompiledSchema {
        if parts.count == 1 {
            var single = schemas[parts[0]]
            if let name { single.name = name }
            return single
        }
        var compiled = CompiledSchema(kind: .object, name: name ?? "allOf")
        for index in parts {
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
