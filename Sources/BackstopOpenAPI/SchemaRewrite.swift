import Backstop
import BackstopJSON

/// The body written anew, once, with every repair the policy allows; clean values are copied
/// as their bytes.
struct SchemaRewrite {
    /// Why a value could not be written: the caller drops it, `nil`s it, or fails.
    struct Invalid {
        var path: String
        var problem: DecodingFailure.Problem
        var detail: String
        var found: Repair.Found
    }

    /// A step of a JSON path, as `JSONPath` writes coding keys.
    struct PathKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) {
            self.stringValue = "Index \(intValue)"
            self.intValue = intValue
        }
    }

    let document: JSONDocument
    let schemas: UnsafeBufferPointer<CompiledSchema>
    let policy: DecodingPolicy
    let check: SchemaCheck
    private(set) var out: [UInt8] = []
    private(set) var repairs: [Repair] = []
    private var path: [PathKey] = []
    /// The containers that held a trailing comma.
    private let trailingCommas: Set<Int>
    /// The same, by tape index in order: which values hold one, themselves or deeper.
    private let commaContainers: [Int]
    /// How many more values may be written before alternatives stop looking for the best fit:
    /// a few times the body's, so the search costs at most a constant factor.
    private var budget: Int

    init(document: JSONDocument, schemas: UnsafeBufferPointer<CompiledSchema>, policy: DecodingPolicy, check: SchemaCheck) {
        self.document = document
        self.schemas = schemas
        self.policy = policy
        self.check = check
        trailingCommas = Set(document.trailingCommas.map(\.container))
        commaContainers = trailingCommas.sorted()
        budget = 4 * document.count + 1024
        out.reserveCapacity(document.byteCount + 64)
    }

    private var pathText: String { JSONPath.string(path) }

    private mutating func record(
        _ action: Repair.Action, _ expected: String, _ found: Repair.Found, _ reason: String? = nil, key: PathKey? = nil
    ) {
        let at = key.map { JSONPath.string(path + [$0]) } ?? pathText
        repairs.append(Repair(path: at, expected: expected, found: found, action: action, reason: reason))
    }

    /// Whether the value at tape `index` held a trailing comma, itself or in a value inside it:
    /// such a value is written anew, never copied (the generated code's decoder refuses the comma).
    private func holdsTrailingComma(_ index: Int) -> Bool {
        guard !commaContainers.isEmpty else { return false }
        // A container's values follow it on the tape, up to the value after it.
        let end = document.next(after: index)
        var low = 0
        var high = commaContainers.count
        while low < high {
            let middle = (low + high) / 2
            if commaContainers[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low < commaContainers.count && commaContainers[low] < end
    }

    private func invalid(_ index: Int, _ problem: DecodingFailure.Problem, _ detail: String) -> Invalid {
        Invalid(path: pathText, problem: problem, detail: detail, found: document.found(index))
    }

    // MARK: Values

    /// Writes the value at tape `index` as schema `schemaIndex` reads it; `nil` when written.
    mutating func write(_ index: Int, _ schemaIndex: Int) -> Invalid? {
        budget -= 1
        let node = document[index]
        let schema = schemas[schemaIndex]
        if !holdsTrailingComma(index) && check.fits(index, schemaIndex) {
            copy(index)
            return nil
        }
        if node.kind == .null {
            if schema.nullable || schema.kind == .null || schema.kind == .any {
                out.append(contentsOf: "null".utf8)
                return nil
            }
            return invalid(index, .null, "expected \(schema.name), found null")
        }
        switch schema.kind {
        case .any: return writeAny(index)
        case .null: return invalid(index, .wrongType, "expected null, found \(node.jsonKind.rawValue)")
        case .boolean: return writeBool(index, node, schema)
        case .integer: return writeInteger(index, node, schema)
        case .number: return writeNumber(index, node, schema)
        case .string: return writeString(index, node, schema)
        case .array: return writeArray(index, node, schema)
        case .object: return writeObject(index, node, schema, schemaIndex)
        case .alternatives:
            if let discriminator = schema.discriminator { return writeDiscriminated(index, node, schema, discriminator) }
            return writeBestFit(index, schema)
        }
    }

    /// A discriminated value: written as the alternative its discriminator names, as the
    /// generated code decodes it; one whose discriminator is missing or names no alternative
    /// cannot be written (so it is dropped or `nil`'d, as an unknown enum value is).
    private mutating func writeDiscriminated(
        _ index: Int, _ node: JSONNode, _ schema: CompiledSchema, _ discriminator: CompiledSchema.Discriminator
    ) -> Invalid? {
        guard node.kind == .object else {
            return invalid(index, .wrongType, "expected \(schema.name), found \(node.jsonKind.rawValue)")
        }
        // The first member of that name, as `JSONDecoder` reads a key written twice.
        var member = index + 1
        var found: Int?
        for _ in 0..<Int(node.length) where found == nil {
            if document.lenientText(of: member) == discriminator.property { found = member + 1 }
            member = document.next(after: member + 1)
        }
        guard let found else {
            return invalid(index, .missing, "expected \(schema.name), which has no \(discriminator.property)")
        }
        guard document[found].kind == .string else {
            return invalid(
                index, .wrongType, "expected \(schema.name), whose \(discriminator.property) is \(document[found].jsonKind.rawValue)")
        }
        let value = document.lenientText(of: found)
        guard let chosen = discriminator.cases.first(where: { $0.value == value }) else {
            return invalid(index, .invalidValue, "\(String(reflecting: value)) is not a \(discriminator.property) of \(schema.name)")
        }
        return write(index, chosen.alternative)
    }

    /// A value of alternatives without a discriminator: the first that fits as it is, else the
    /// one written with the fewest repairs (the first of those on a tie). Past ``budget`` the
    /// first that can be written is taken, so a body cannot make the walk try every alternative
    /// of every alternative.
    private mutating func writeBestFit(_ index: Int, _ schema: CompiledSchema) -> Invalid? {
        let mark = (out.count, repairs.count)
        var first: Invalid?
        var best: (out: [UInt8], repairs: [Repair])?
        for alternative in schema.alternatives {
            if let failed = write(index, alternative) {
                first = first ?? failed
                rollback(to: mark)
                continue
            }
            let added = repairs.count - mark.1
            if added == 0 { return nil }
            if best.map({ added < $0.repairs.count }) ?? true {
                best = (Array(out[mark.0...]), Array(repairs[mark.1...]))
            }
            rollback(to: mark)
            if budget <= 0 { break }
        }
        guard let best else { return first ?? invalid(index, .invalidValue, "fits none of \(schema.name)'s alternatives") }
        out.append(contentsOf: best.out)
        repairs.append(contentsOf: best.repairs)
        return nil
    }

    private mutating func rollback(to mark: (Int, Int)) {
        out.removeSubrange(mark.0...)
        repairs.removeSubrange(mark.1...)
    }

    /// The value's bytes as written: strings with their quotes, containers whole.
    private mutating func copy(_ index: Int) {
        let node = document[index]
        switch node.kind {
        case .string:
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: document.raw(node))
            out.append(UInt8(ascii: "\""))
        case .array, .object:
            let start = Int(node.start)
            let end = check.valueEnd(index)
            out.append(contentsOf: UnsafeBufferPointer(start: document.base + start, count: end - start))
        default:
            out.append(contentsOf: document.raw(node))
        }
    }

    /// Any value: copied, but for the dirt a lenient parse accepted.
    private mutating func writeAny(_ index: Int) -> Invalid? {
        let node = document[index]
        if !holdsTrailingComma(index) && check.isClean(index) {
            copy(index)
            return nil
        }
        switch node.kind {
        case .string:
            writeText(document.lenientText(of: index))
            recordDirt(index)
        case .number:
            return invalid(index, .invalidValue, "\(document.excerpt(index)) is not a number JSONDecoder reads")
        case .array:
            if trailingCommas.contains(index) { record(.ignoredTrailingComma, "array", Repair.Found(kind: .array, excerpt: ",")) }
            out.append(UInt8(ascii: "["))
            var element = index + 1
            var wrote = false
            for position in 0..<Int(node.length) {
                let mark = (out.count, repairs.count)
                if wrote { out.append(UInt8(ascii: ",")) }
                path.append(PathKey(intValue: position))
                let failed = writeAny(element)
                path.removeLast()
                if let failed {
                    rollback(to: mark)
                    guard policy.contains(.dropInvalidElements) else { return failed }
                    record(.dropped, "value", failed.found, failed.detail, key: PathKey(intValue: position))
                } else {
                    wrote = true
                }
                element = document.next(after: element)
            }
            out.append(UInt8(ascii: "]"))
        case .object:
            if trailingCommas.contains(index) { record(.ignoredTrailingComma, "object", Repair.Found(kind: .object, excerpt: ",")) }
            out.append(UInt8(ascii: "{"))
            var member = index + 1
            var wrote = false
            for _ in 0..<Int(node.length) {
                let key = PathKey(stringValue: document.lenientText(of: member))
                let mark = (out.count, repairs.count)
                if wrote { out.append(UInt8(ascii: ",")) }
                writeKey(member, as: key)
                path.append(key)
                let failed = writeAny(member + 1)
                path.removeLast()
                if let failed {
                    rollback(to: mark)
                    guard policy.contains(.nilInvalidOptionals) else { return failed }
                    record(.setToNil, "value", failed.found, failed.detail, key: key)
                } else {
                    wrote = true
                }
                member = document.next(after: member + 1)
            }
            out.append(UInt8(ascii: "}"))
        default:
            copy(index)
        }
        return nil
    }

    // MARK: Scalars

    private mutating func writeBool(_ index: Int, _ node: JSONNode, _ schema: CompiledSchema) -> Invalid? {
        if node.kind == .true || node.kind == .false {
            copy(index)
            return nil
        }
        if policy.contains(.boolsFromNumbersAndStrings), node.kind == .number || node.kind == .string,
            let value = Coercion.bool(document.raw(node))
        {
            out.append(contentsOf: (value ? "true" : "false").utf8)
            record(.coerced, schema.name, document.found(index))
            return nil
        }
        return invalid(index, .wrongType, "expected \(schema.name), found \(node.jsonKind.rawValue)")
    }

    private mutating func writeInteger(_ index: Int, _ node: JSONNode, _ schema: CompiledSchema) -> Invalid? {
        let allowed = node.kind == .number ? !node.isNonFinite : node.kind == .string && policy.contains(.numbersFromStrings)
        if allowed, let value = Coercion.integer(document.raw(node), as: Int64.self),
            schema.format != .int32 || Int32(exactly: value) != nil
        {
            out.append(contentsOf: String(value).utf8)
            record(.coerced, schema.name, document.found(index))
            return nil
        }
        return invalid(
            index, node.kind == .number || node.kind == .string ? .invalidValue : .wrongType,
            "expected \(Self.described(schema)), found \(node.jsonKind.rawValue) \(document.excerpt(index))")
    }

    /// A number schema's name, and the format its value must fit when it has one: `integer (int32)`.
    private static func described(_ schema: CompiledSchema) -> String {
        switch schema.format {
        case .standard: schema.name
        case .int32: "\(schema.name) (int32)"
        case .float: "\(schema.name) (float)"
        }
    }

    private mutating func writeNumber(_ index: Int, _ node: JSONNode, _ schema: CompiledSchema) -> Invalid? {
        if node.kind == .string, policy.contains(.numbersFromStrings), Coercion.isNumber(document.raw(node)),
            schema.format == .float
                ? Coercion.floatingPoint(document.raw(node), as: Float.self) != nil
                : Coercion.floatingPoint(document.raw(node), as: Double.self) != nil
        {
            out.append(contentsOf: document.raw(node))
            record(.coerced, schema.name, document.found(index))
            return nil
        }
        return invalid(
            index, node.kind == .number || node.kind == .string ? .invalidValue : .wrongType,
            "expected \(Self.described(schema)), found \(node.jsonKind.rawValue) \(document.excerpt(index))")
    }

    private mutating func writeString(_ index: Int, _ node: JSONNode, _ schema: CompiledSchema) -> Invalid? {
        var text: String
        var coerced = false
        switch node.kind {
        case .string:
            text = document.lenientText(of: index)
            recordDirt(index)
        case .number where schema.isDateTime && !node.isNonFinite:
            guard let date = DateTimeText.repaired(String(decoding: document.raw(node), as: UTF8.self)) else {
                return invalid(index, .invalidValue, "expected a date-time, found \(document.excerpt(index))")
            }
            writeText(date)
            record(.coerced, schema.name, document.found(index), "epoch seconds written as RFC 3339")
            return nil
        case .number where policy.contains(.stringsFromNumbers) && !node.isNonFinite:
            text = String(decoding: document.raw(node), as: UTF8.self)
            coerced = true
        default:
            return invalid(index, .wrongType, "expected \(schema.name), found \(node.jsonKind.rawValue)")
        }
        if !schema.enumValues.isEmpty && !schema.enumValues.contains(Array(text.utf8)) {
            guard let fallback = schema.fallback else {
                return invalid(index, .invalidValue, "\(String(reflecting: text)) is not a value of \(schema.name)")
            }
            record(.fellBack, schema.name, document.found(index), "\(String(reflecting: text)) is not a known case; used \(fallback)")
            writeText(fallback)
            return nil
        }
        if schema.isDateTime && !DateTimeText.isRFC3339(Array(text.utf8)) {
            guard let date = DateTimeText.repaired(text) else {
                return invalid(index, .invalidValue, "expected a date-time, found \(document.excerpt(index))")
            }
            record(.coerced, schema.name, document.found(index), "written as RFC 3339")
            text = date
        } else if coerced {
            record(.coerced, schema.name, document.found(index))
        }
        writeText(text)
        return nil
    }

    /// The repairs a lenient parse made inside the string at `index`.
    private mutating func recordDirt(_ index: Int, key: PathKey? = nil) {
        for dirt in document.stringDirt(at: index) { record(dirt.action, "string", dirt.found, dirt.reason, key: key) }
    }

    // MARK: Containers

    private mutating func writeArray(_ index: Int, _ node: JSONNode, _ schema: CompiledSchema) -> Invalid? {
        guard node.kind == .array else {
            return invalid(index, .wrongType, "expected \(schema.name), found \(node.jsonKind.rawValue)")
        }
        if trailingCommas.contains(index) { record(.ignoredTrailingComma, schema.name, Repair.Found(kind: .array, excerpt: ",")) }
        let expected = schema.items.map { schemas[$0].name } ?? "value"
        out.append(UInt8(ascii: "["))
        var element = index + 1
        var wrote = false
        for position in 0..<Int(node.length) {
            let mark = (out.count, repairs.count)
            if wrote { out.append(UInt8(ascii: ",")) }
            path.append(PathKey(intValue: position))
            let failed = schema.items.map { write(element, $0) } ?? writeAny(element)
            path.removeLast()
            if let failed {
                rollback(to: mark)
                guard policy.contains(.dropInvalidElements) else { return failed }
                record(.dropped, expected, failed.found, "\(failed.path): \(failed.detail)", key: PathKey(intValue: position))
            } else {
                wrote = true
            }
            element = document.next(after: element)
        }
        out.append(UInt8(ascii: "]"))
        return nil
    }

    private mutating func writeObject(_ index: Int, _ node: JSONNode, _ schema: CompiledSchema, _ schemaIndex: Int) -> Invalid? {
        guard node.kind == .object else {
            return invalid(index, .wrongType, "expected \(schema.name), found \(node.jsonKind.rawValue)")
        }
        if trailingCommas.contains(index) { record(.ignoredTrailingComma, schema.name, Repair.Found(kind: .object, excerpt: ",")) }
        var seen = [Bool](repeating: false, count: schema.properties.count)
        var cursor = 0
        var wrote = false
        out.append(UInt8(ascii: "{"))
        var member = index + 1
        for _ in 0..<Int(node.length) {
            let value = member + 1
            let found = check.property(named: member, in: schemaIndex, from: &cursor)
            let key = PathKey(stringValue: found.map { schema.properties[$0].text } ?? document.lenientText(of: member))
            let mark = (out.count, repairs.count)
            if wrote { out.append(UInt8(ascii: ",")) }
            writeKey(member, as: key)
            path.append(key)
            var failed: Invalid?
            if let found {
                let property = schema.properties[found]
                seen[found] = true
                let propertySchema = schemas[property.schema]
                if document[value].kind == .null && property.required && !propertySchema.nullable && propertySchema.kind != .any
                    && propertySchema.kind != .null
                {
                    failed = writeDefault(property.schema, because: .defaultedBecauseNull, found: document.found(value))
                } else if document[value].kind == .null && !property.required {
                    out.append(contentsOf: "null".utf8)
                } else {
                    failed = write(value, property.schema)
                }
                if failed != nil && !property.required {
                    path.removeLast()
                    rollback(to: mark)
                    guard policy.contains(.nilInvalidOptionals), let invalid = failed else { return failed }
                    record(.setToNil, propertySchema.name, invalid.found, "\(invalid.path): \(invalid.detail)", key: key)
                    member = document.next(after: value)
                    continue
                }
            } else if let additional = schema.additional {
                failed = write(value, additional)
                if let invalid = failed {
                    path.removeLast()
                    rollback(to: mark)
                    guard policy.contains(.dropInvalidElements) else { return failed }
                    record(.dropped, schemas[additional].name, invalid.found, "\(invalid.path): \(invalid.detail)", key: key)
                    member = document.next(after: value)
                    continue
                }
            } else {
                failed = writeAny(value)
            }
            path.removeLast()
            if let failed { return failed }
            wrote = true
            member = document.next(after: value)
        }
        for (position, property) in schema.properties.enumerated() where property.required && !seen[position] {
            let key = PathKey(stringValue: property.text)
            if wrote { out.append(UInt8(ascii: ",")) }
            writeText(property.text)
            out.append(UInt8(ascii: ":"))
            path.append(key)
            let failed = writeDefault(property.schema, because: .defaultedBecauseMissing, found: Repair.Found(kind: .missing, excerpt: ""))
            path.removeLast()
            if let failed { return failed }
            wrote = true
        }
        out.append(UInt8(ascii: "}"))
        return nil
    }

    // MARK: Defaults

    /// The default of schema `schemaIndex` in place of a missing or `null` value.
    private mutating func writeDefault(_ schemaIndex: Int, because action: Repair.Action, found: Repair.Found) -> Invalid? {
        let schema = schemas[schemaIndex]
        let allowed = action == .defaultedBecauseNull ? DecodingPolicy.defaultNullValues : .defaultMissingValues
        let problem: DecodingFailure.Problem = action == .defaultedBecauseNull ? .null : .missing
        guard policy.contains(allowed) else {
            return Invalid(path: pathText, problem: problem, detail: "expected \(schema.name)", found: found)
        }
        var visiting: Set<Int> = []
        guard let value = defaultValue(schemaIndex, visiting: &visiting) else {
            return Invalid(path: pathText, problem: problem, detail: "expected \(schema.name), which has no default", found: found)
        }
        out.append(contentsOf: value)
        record(action, schema.name, found)
        return nil
    }

    /// The schema's `default`, else its type's: `false`, `0`, `""`, `[]`, an object of its
    /// required properties' defaults, `null` where `null` fits; `nil` when it has none (a
    /// date-time, an enum without fallback, a recursive object).
    private func defaultValue(_ schemaIndex: Int, visiting: inout Set<Int>) -> [UInt8]? {
        let schema = schemas[schemaIndex]
        if let json = schema.defaultJSON { return json }
        if schema.nullable { return Array("null".utf8) }
        switch schema.kind {
        case .boolean: return Array("false".utf8)
        case .integer, .number: return Array("0".utf8)
        case .string:
            if schema.isDateTime { return nil }
            if !schema.enumValues.isEmpty { return schema.fallback.map { Array("\"\($0)\"".utf8) } }
            return Array("\"\"".utf8)
        case .array: return Array("[]".utf8)
        case .object:
            guard visiting.insert(schemaIndex).inserted else { return nil }
            defer { visiting.remove(schemaIndex) }
            var bytes = Array("{".utf8)
            for property in schema.properties where property.required {
                guard let value = defaultValue(property.schema, visiting: &visiting) else { return nil }
                if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: JSONText.quoted(property.text))
                bytes.append(UInt8(ascii: ":"))
                bytes.append(contentsOf: value)
            }
            bytes.append(UInt8(ascii: "}"))
            return bytes
        case .null: return Array("null".utf8)
        case .any, .alternatives: return nil
        }
    }

    // MARK: Text

    /// A member's key; one a lenient parse accepted dirt in is written anew, its dirt reported
    /// at the member's path (the generated code's decoder refuses the raw bytes).
    private mutating func writeKey(_ keyIndex: Int, as key: PathKey) {
        if document[keyIndex].isPlainText {
            copy(keyIndex)
        } else {
            writeText(document.lenientText(of: keyIndex))
            recordDirt(keyIndex, key: key)
        }
        out.append(UInt8(ascii: ":"))
    }

    private mutating func writeText(_ text: String) {
        out.append(contentsOf: JSONText.quoted(text))
    }
}
