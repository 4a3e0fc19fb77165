import BackstopJSON

/// Whether a parsed body fits its schema as it is: the clean path, which reads the tape and
/// the schema table and allocates nothing.
struct SchemaCheck {
    let document: JSONDocument
    let schemas: UnsafeBufferPointer<CompiledSchema>

    /// Whether the value at tape `index` fits schema `schemaIndex` with nothing to repair.
    func fits(_ index: Int, _ schemaIndex: Int) -> Bool {
        let node = document[index]
        let schema = schemas[schemaIndex]
        if node.kind == .null { return schema.nullable || schema.kind == .null || schema.kind == .any }
        switch schema.kind {
        case .any: return isClean(index)
        case .null: return false
        case .boolean: return node.kind == .true || node.kind == .false
        case .integer: return node.kind == .number && node.isInteger
        case .number: return node.kind == .number && !node.isNonFinite
        case .string: return node.kind == .string && stringFits(index, node, schema)
        case .array:
            guard node.kind == .array else { return false }
            var element = index + 1
            for _ in 0..<Int(node.length) {
                if let items = schema.items {
                    if !fits(element, items) { return false }
                } else if !isClean(element) {
                    return false
                }
                element = document.next(after: element)
            }
            return true
        case .object: return node.kind == .object && objectFits(index, node, schema)
        case .alternatives:
            for alternative in schema.alternatives where fits(index, alternative) { return true }
            return false
        }
    }

    private func objectFits(_ index: Int, _ node: JSONNode, _ schema: CompiledSchema) -> Bool {
        var requiredSeen = 0
        var cursor = 0
        var member = index + 1
        for _ in 0..<Int(node.length) {
            let value = member + 1
            if let found = property(named: member, in: schema, from: &cursor) {
                let property = schema.properties[found]
                if document[value].kind == .null && !property.required {
                    // An optional property's `null` reads as absent.
                } else if !fits(value, property.schema) {
                    return false
                }
                if property.required { requiredSeen += 1 }
            } else if let additional = schema.additional {
                if !fits(value, additional) { return false }
            } else if !isClean(value) {
                return false
            }
            member = document.next(after: value)
        }
        return requiredSeen == schema.requiredCount
    }

    /// The index in `schema.properties` of the property the key at tape `keyIndex` names,
    /// looked for first where the previous one was found: members usually come in the schema's order.
    func property(named keyIndex: Int, in schema: CompiledSchema, from cursor: inout Int) -> Int? {
        let properties = schema.properties
        guard !properties.isEmpty else { return nil }
        let key = document[keyIndex]
        if !key.isPlainText {
            let text = document.lenientText(of: keyIndex)
            return properties.firstIndex { $0.text == text }
        }
        let raw = document.raw(key)
        var position = cursor
        for _ in 0..<properties.count {
            if position == properties.count { position = 0 }
            if properties[position].name.count == raw.count && properties[position].name.elementsEqual(raw) {
                cursor = position + 1
                return position
            }
            position += 1
        }
        return nil
    }

    private func stringFits(_ index: Int, _ node: JSONNode, _ schema: CompiledSchema) -> Bool {
        if !node.isPlainText && !document.stringDirt(at: index).isEmpty { return false }
        if !schema.enumValues.isEmpty {
            if node.isPlainText {
                let raw = document.raw(node)
                return schema.enumValues.contains { $0.count == raw.count && $0.elementsEqual(raw) }
            }
            let text = Array(document.lenientText(of: index).utf8)
            return schema.enumValues.contains(text)
        }
        if schema.isDateTime { return node.isPlainText && DateTimeText.isRFC3339(document.raw(node)) }
        return true
    }

    /// Whether the value at `index` holds nothing a lenient parse accepted that the generated
    /// code's `JSONDecoder` would refuse (dirty strings, non-finite numbers).
    func isClean(_ index: Int) -> Bool {
        let end = document.next(after: index)
        var current = index
        while current < end {
            let node = document[current]
            if node.kind == .string && !node.isPlainText && !document.stringDirt(at: current).isEmpty { return false }
            if node.kind == .number && node.isNonFinite { return false }
            current += 1
        }
        return true
    }
}
