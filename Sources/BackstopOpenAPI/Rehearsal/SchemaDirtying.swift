import Foundation

/// Makes one kind of ``DocumentDirt`` in a value, where its compiled schema says each part is:
/// a number the schema declares becomes a string, a required property goes missing, and so on.
///
/// Walks at most ``maximumDepth`` levels; deeper parts are left as they are.
struct SchemaDirtying {
    static let maximumDepth = 64
    /// The value an unknown enum gets: no document lists it.
    static let unknownEnumValue = "backstop-unknown-value"
    /// The text ``DocumentDirt/latin1`` writes, and where it is replaced by its Latin-1 bytes after rendering.
    static let latin1Text = "Crème brûlée"
    static let latin1Marker = "\u{E000}backstop-latin-1\u{E000}"

    let schemas: [CompiledSchema]
    let dirt: DocumentDirt
    /// How many changes were made: none means the dirt does not apply to this value.
    private(set) var changes = 0

    init(schemas: [CompiledSchema], dirt: DocumentDirt) {
        self.schemas = schemas
        self.dirt = dirt
    }

    /// `value` with the dirt made where schema `index` allows; `skipping` is a discriminator
    /// property, left as it is so the value still says which alternative it is.
    mutating func dirty(_ value: SampleJSON, schema index: Int, depth: Int = 0, skipping: String? = nil) -> SampleJSON {
        guard depth < Self.maximumDepth, schemas.indices.contains(index) else { return value }
        let schema = schemas[index]
        if schema.kind == .alternatives {
            guard let chosen = alternative(of: schema, for: value) else { return value }
            return dirty(value, schema: chosen, depth: depth + 1, skipping: schema.discriminator?.property)
        }
        switch value {
        case .number(let text):
            switch dirt {
            case .numbersAsStrings where schema.kind == .integer || schema.kind == .number:
                changes += 1
                return .string(text)
            case .notANumber where schema.kind == .number && changes == 0:
                changes += 1
                return .number("NaN")
            default: return value
            }
        case .bool(let flag):
            guard dirt == .numbersAsStrings, schema.kind == .boolean else { return value }
            changes += 1
            return .string(flag ? "true" : "false")
        case .string(let text):
            switch dirt {
            case .unknownEnumValues where !schema.enumValues.isEmpty:
                changes += 1
                return .string(Self.unknownEnumValue)
            case .oddDates where schema.isDateTime:
                guard let odd = Self.oddDate(text, shape: changes % 3) else { return value }
                changes += 1
                return odd
            case .latin1 where schema.kind == .string && schema.enumValues.isEmpty && !schema.isDateTime && changes == 0:
                changes += 1
                return .string(Self.latin1Marker)
            default: return value
            }
        case .array(var elements):
            guard let items = schema.items, schema.kind == .array else { return value }
            for offset in elements.indices { elements[offset] = dirty(elements[offset], schema: items, depth: depth + 1) }
            if dirt == .brokenArrayElement, !elements.isEmpty, let broken = broken(items) {
                changes += 1
                elements[elements.count / 2] = broken
            }
            return .array(elements)
        case .object(var members):
            guard schema.kind == .object else { return value }
            if dirt == .nullsAndMissingFields {
                // In the order the value writes them, which is the same from run to run.
                let required = members.map(\.0).filter { name in
                    name != skipping
                        && schema.properties.contains { $0.text == name && $0.required && !schemas[$0.schema].nullable }
                }
                if let first = required.first, let position = members.firstIndex(where: { $0.0 == first }) {
                    members[position].1 = .null
                    changes += 1
                }
                if required.count > 1 {
                    members.removeAll { $0.0 == required[1] }
                    changes += 1
                }
            }
            for offset in members.indices where members[offset].0 != skipping {
                guard let property = schema.properties.first(where: { $0.text == members[offset].0 }) else {
                    if let additional = schema.additional {
                        members[offset].1 = dirty(members[offset].1, schema: additional, depth: depth + 1)
                    }
                    continue
                }
                members[offset].1 = dirty(members[offset].1, schema: property.schema, depth: depth + 1)
            }
            return .object(members)
        case .null:
            return value
        }
    }

    /// The alternative `value` is written as: the one its discriminator names, else the first of its JSON kind.
    private func alternative(of schema: CompiledSchema, for value: SampleJSON) -> Int? {
        if let discriminator = schema.discriminator, case .object(let members) = value,
            case .string(let tag)? = members.first(where: { $0.0 == discriminator.property })?.1
        {
            return discriminator.cases.first { $0.value == tag }?.alternative
        }
        return schema.alternatives.first { alternative in
            switch (schemas[alternative].kind, value) {
            case (.object, .object), (.array, .array), (.string, .string), (.boolean, .bool), (.integer, .number), (.number, .number):
                true
            default: false
            }
        }
    }

    /// A value an element of schema `index` cannot be read as; `nil` when any value fits it.
    private func broken(_ index: Int) -> SampleJSON? {
        let schema = schemas[index]
        switch schema.kind {
        case .object, .array: return .string("broken")
        case .string: return .object([("broken", .bool(true))])
        case .integer, .number, .boolean: return .object([])
        case .alternatives:
            let kinds = Set(schema.alternatives.map { schemas[$0].kind })
            if kinds.contains(.any) { return nil }
            return kinds.contains(.string) ? .array([.bool(true)]) : .string("broken")
        case .any, .null: return nil
        }
    }

    /// `text`, an RFC 3339 date-time, in another shape: a space and no zone, no zone, or epoch seconds.
    private static func oddDate(_ text: String, shape: Int) -> SampleJSON? {
        guard let date = ISO8601DateFormatter().date(from: text) else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        let local = formatter.string(from: date)
        switch shape {
        case 0: return .string(local.replacingOccurrences(of: "T", with: " "))
        case 1: return .string(local)
        default: return .number(String(Int64(date.timeIntervalSince1970)))
        }
    }
}
