import BackstopJSON
import Foundation

/// Whether a parsed body fits its schema as it is: the clean path. It reads the tape and the
/// flat schema table through pointers, and neither allocates nor counts references.
struct SchemaCheck {
    /// Unowned: the caller keeps the document alive for the walk.
    unowned(unsafe) let document: JSONDocument
    let tape: UnsafePointer<JSONNode>
    let base: UnsafePointer<UInt8>
    let nodes: UnsafeBufferPointer<FlatSchemas.Node>
    let properties: UnsafeBufferPointer<FlatSchemas.Property>
    let names: UnsafeBufferPointer<UInt8>
    let alternatives: UnsafeBufferPointer<Int32>
    /// For enum values only, which the flat table does not hold.
    let schemas: UnsafeBufferPointer<CompiledSchema>

    /// The index of the value after the value at `index`.
    @inline(__always)
    func next(after index: Int) -> Int {
        let node = tape[index]
        return node.kind == .array || node.kind == .object ? Int(node.aux) : index + 1
    }

    /// The byte offset just past the value at tape `index`: past a string's closing quote, a
    /// container's closing bracket (found after its last value, so nested containers that
    /// close together are told apart).
    func valueEnd(_ index: Int) -> Int {
        let node = tape[index]
        switch node.kind {
        case .string: return Int(node.start) + Int(node.length) + 1
        case .array, .object:
            var position = Int(node.start) + 1
            if node.length > 0 {
                var child = index + 1
                var last = child
                for _ in 0..<Int(node.length) {
                    // An object's members are a key and a value: the value is what ends it.
                    last = node.kind == .object ? child + 1 : child
                    child = next(after: last)
                }
                position = valueEnd(last)
            }
            let closing = node.kind == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")
            while position < document.byteCount && base[position] != closing { position += 1 }
            return min(position + 1, document.byteCount)
        default: return Int(node.start) + Int(node.length)
        }
    }

    /// Whether the value at tape `index` fits schema `schemaIndex` with nothing to repair.
    func fits(_ index: Int, _ schemaIndex: Int) -> Bool {
        let node = tape[index]
        let schema = nodes[schemaIndex]
        if node.kind == .null { return schema.nullable || schema.kind == .null || schema.kind == .any }
        switch schema.kind {
        case .any: return isClean(index)
        case .null: return false
        case .boolean: return node.kind == .true || node.kind == .false
        case .integer: return node.kind == .number && node.isInteger && readsAsInteger(node, schema.format)
        case .number: return node.kind == .number && !node.isNonFinite && readsAsDouble(node) && readsAsFormat(node, schema.format)
        case .string: return node.kind == .string && stringFits(index, node, schema, schemaIndex)
        case .array:
            guard node.kind == .array else { return false }
            var element = index + 1
            let items = Int(schema.items)
            for _ in 0..<Int(node.length) {
                if items >= 0 {
                    if !fits(element, items) { return false }
                } else if !isClean(element) {
                    return false
                }
                element = next(after: element)
            }
            return true
        case .object: return node.kind == .object && objectFits(index, node, schema)
        case .alternatives:
            let start = Int(schema.alternativeStart)
            for offset in 0..<Int(schema.alternativeCount) where fits(index, Int(alternatives[start + offset])) { return true }
            return false
        }
    }

    private func objectFits(_ index: Int, _ node: JSONNode, _ schema: FlatSchemas.Node) -> Bool {
        // Required properties are counted once each: a key written twice must not stand in for
        // one that is missing (the generated code's decoder would throw `keyNotFound`).
        var requiredSeen: Int32 = 0
        var requiredMask: UInt64 = 0
        var cursor = 0
        var member = index + 1
        for _ in 0..<Int(node.length) {
            let value = member + 1
            // A key with dirt in it is written anew.
            if !tape[member].isPlainText && !document.stringDirt(at: member).isEmpty { return false }
            if let found = property(named: member, in: schema, from: &cursor) {
                let property = properties[Int(schema.propertyStart) + found]
                if tape[value].kind == .null && !property.required {
                    // An optional property's `null` reads as absent.
                } else if !fits(value, Int(property.schema)) {
                    return false
                }
                if property.required {
                    // A required key seen twice (or, past 64 required properties, one that shares
                    // its bit): the rewrite tells.
                    if requiredMask & property.requiredBit != 0 { return false }
                    requiredMask |= property.requiredBit
                    requiredSeen += 1
                }
            } else if schema.additional >= 0 {
                if !fits(value, Int(schema.additional)) { return false }
            } else if !isClean(value) {
                return false
            }
            member = next(after: value)
        }
        return requiredSeen == schema.requiredCount
    }

    /// The position among schema `schemaIndex`'s properties of the one the key at tape
    /// `keyIndex` names.
    func property(named keyIndex: Int, in schemaIndex: Int, from cursor: inout Int) -> Int? {
        property(named: keyIndex, in: nodes[schemaIndex], from: &cursor)
    }

    /// Looked for first where the previous one was found: members usually come in the schema's order.
    private func property(named keyIndex: Int, in schema: FlatSchemas.Node, from cursor: inout Int) -> Int? {
        let count = Int(schema.propertyCount)
        guard count > 0, let names = names.baseAddress else { return nil }
        let key = tape[keyIndex]
        let start = Int(schema.propertyStart)
        if !key.isPlainText {
            let text = Array(document.lenientText(of: keyIndex).utf8)
            return (0..<count).first { position in
                let property = properties[start + position]
                return UnsafeBufferPointer(start: names + Int(property.nameStart), count: Int(property.nameCount)).elementsEqual(text)
            }
        }
        let keyBytes = base + Int(key.start)
        let keyCount = Int(key.length)
        var position = cursor
        for _ in 0..<count {
            if position == count { position = 0 }
            let property = properties[start + position]
            if Int(property.nameCount) == keyCount && memcmp(names + Int(property.nameStart), keyBytes, keyCount) == 0 {
                cursor = position + 1
                return position
            }
            position += 1
        }
        return nil
    }

    private func stringFits(_ index: Int, _ node: JSONNode, _ schema: FlatSchemas.Node, _ schemaIndex: Int) -> Bool {
        if !node.isPlainText && !document.stringDirt(at: index).isEmpty { return false }
        if schema.hasEnum {
            let values = schemas[schemaIndex].enumValues
            if node.isPlainText {
                let raw = UnsafeBufferPointer(start: base + Int(node.start), count: Int(node.length))
                return values.contains { $0.count == raw.count && $0.elementsEqual(raw) }
            }
            return values.contains(Array(document.lenientText(of: index).utf8))
        }
        if schema.isDateTime {
            return node.isPlainText && DateTimeText.isRFC3339(UnsafeBufferPointer(start: base + Int(node.start), count: Int(node.length)))
        }
        return true
    }

    /// Whether the value at `index` holds nothing a lenient parse accepted that the generated
    /// code's `JSONDecoder` would refuse (dirty strings, non-finite numbers).
    func isClean(_ index: Int) -> Bool {
        let end = next(after: index)
        var current = index
        while current < end {
            let node = tape[current]
            if node.kind == .string && !node.isPlainText && !document.stringDirt(at: current).isEmpty { return false }
            if node.kind == .number && (node.isNonFinite || !readsAsDouble(node)) { return false }
            current += 1
        }
        return true
    }

    /// Whether the generated code's `Int` (`Int32` for `format: int32`) holds the integer
    /// `node` writes: 18 digits (9) always do.
    private func readsAsInteger(_ node: JSONNode, _ format: CompiledSchema.Format) -> Bool {
        let raw = UnsafeBufferPointer(start: base + Int(node.start), count: Int(node.length))
        if format == .int32 { return node.length <= 9 || Coercion.integer(raw, as: Int32.self) != nil }
        return node.length <= 18 || Coercion.integer(raw, as: Int64.self) != nil
    }

    /// Whether a number that reads as a `Double` fits `format` too: a `Float` for `format: float`.
    private func readsAsFormat(_ node: JSONNode, _ format: CompiledSchema.Format) -> Bool {
        format != .float
            || Coercion.floatingPoint(UnsafeBufferPointer(start: base + Int(node.start), count: Int(node.length)), as: Float.self) != nil
    }

    /// Whether Foundation reads the number `node` writes as a `Double`: not when it overflows, or
    /// when it is not zero and rounds to zero (`1e400`, `1e-400`). Up to 300 bytes without an
    /// exponent always does.
    private func readsAsDouble(_ node: JSONNode) -> Bool {
        let raw = UnsafeBufferPointer(start: base + Int(node.start), count: Int(node.length))
        if raw.count <= 300 && !raw.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) { return true }
        return Coercion.floatingPoint(raw, as: Double.self) != nil
    }
}
