import BackstopJSON
import Foundation

/// The clean path's first try: one pass over the body's bytes against the flat schema table,
/// without parsing into a tape. It answers only "clean": strict JSON (RFC 8259, UTF-8, no byte
/// order mark) that fits its schema with nothing to repair. Anything else, and anything it is
/// not sure of (an escaped key, an escaped enum or date-time value, nesting deeper than
/// ``maximumDepth``), makes it give up, and the body goes through ``SchemaRepair``'s tape-based
/// walk from the start, so what it accepts is a subset of what ``SchemaCheck`` accepts and a
/// repaired body is exactly what it was before. Every read is bounds-checked against `count`.
struct StreamingCheck {
    /// Deeper bodies go to the tape-based walk, which takes up to `JSONScanner.maximumDepth`
    /// (512); this bound also keeps the recursion's stack small on a task's thread.
    static let maximumDepth = 128

    let bytes: UnsafePointer<UInt8>
    let count: Int
    let nodes: UnsafeBufferPointer<FlatSchemas.Node>
    let properties: UnsafeBufferPointer<FlatSchemas.Property>
    let names: UnsafeBufferPointer<UInt8>
    let alternatives: UnsafeBufferPointer<Int32>
    /// For enum values only, which the flat table does not hold.
    let schemas: UnsafeBufferPointer<CompiledSchema>
    private var position = 0
    private var depth = 0

    init(
        bytes: UnsafePointer<UInt8>, count: Int, nodes: UnsafeBufferPointer<FlatSchemas.Node>,
        properties: UnsafeBufferPointer<FlatSchemas.Property>, names: UnsafeBufferPointer<UInt8>, alternatives: UnsafeBufferPointer<Int32>,
        schemas: UnsafeBufferPointer<CompiledSchema>
    ) {
        self.bytes = bytes
        self.count = count
        self.nodes = nodes
        self.properties = properties
        self.names = names
        self.alternatives = alternatives
        self.schemas = schemas
    }

    /// Whether the whole body is one strict JSON value that fits schema `root` as it is.
    mutating func bodyFits(_ root: Int) -> Bool {
        // The tape's offsets are 32-bit; larger bodies are the tape's to refuse.
        guard count < Int(UInt32.max) else { return false }
        skipWhitespace()
        guard fits(root) else { return false }
        skipWhitespace()
        return position == count
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < count {
            let byte = bytes[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    /// The byte at `position`, or 0 past the end (which nothing below accepts).
    @inline(__always)
    private func peek() -> UInt8 { position < count ? bytes[position] : 0 }

    /// Whether the value at `position` fits schema `schemaIndex`; moves past it when it does.
    private mutating func fits(_ schemaIndex: Int) -> Bool {
        let schema = nodes[schemaIndex]
        let byte = peek()
        if byte == UInt8(ascii: "n") {
            guard literal("null") else { return false }
            return schema.nullable || schema.kind == .null || schema.kind == .any
        }
        switch schema.kind {
        case .any: return anyValue()
        case .null: return false
        case .boolean:
            if byte == UInt8(ascii: "t") { return literal("true") }
            return byte == UInt8(ascii: "f") && literal("false")
        case .integer: return number(integerOnly: true, format: schema.format)
        case .number: return number(integerOnly: false, format: schema.format)
        case .string: return byte == UInt8(ascii: "\"") && stringFits(schema, schemaIndex)
        case .array:
            guard byte == UInt8(ascii: "[") else { return false }
            return array(items: Int(schema.items))
        case .object:
            guard byte == UInt8(ascii: "{") else { return false }
            return object(schema)
        case .alternatives:
            // As the tape-based check: the first alternative that fits.
            let (start, startDepth) = (position, depth)
            let first = Int(schema.alternativeStart)
            for offset in 0..<Int(schema.alternativeCount) {
                position = start
                depth = startDepth
                if fits(Int(alternatives[first + offset])) { return true }
            }
            return false
        }
    }

    /// Any strict JSON value: what ``SchemaCheck/isClean(_:)`` accepts, and an unknown property's value.
    private mutating func anyValue() -> Bool {
        switch peek() {
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "{"): return object(nil)
        case UInt8(ascii: "["): return array(items: -1)
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number(integerOnly: false, format: .standard)
        }
    }

    @inline(__always)
    private mutating func literal(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard count - position >= length, memcmp(bytes + position, word.utf8Start, length) == 0 else { return false }
        position += length
        return true
    }

    /// A number as RFC 8259 writes it; with `integerOnly`, one with neither fraction nor exponent
    /// that the generated code's `Int` surely holds (18 digits at most). Any number that might not
    /// be a finite, non-zero-rounding `Double` to Foundation (more than 200 digits, or an exponent
    /// of three digits) is left to the tape-based walk, which tells exactly; so is an `int32` of
    /// more than 9 digits, and a `float` of more than 38 digits or with an exponent.
    private mutating func number(integerOnly: Bool, format: CompiledSchema.Format) -> Bool {
        var index = position
        @inline(__always) func isDigit(_ index: Int) -> Bool { index < count && bytes[index] &- 0x30 < 10 }
        if index < count && bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return false }
        let digitsStart = index
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < count && bytes[index] == UInt8(ascii: ".") {
            guard !integerOnly, isDigit(index + 1) else { return false }
            index += 1
            while isDigit(index) { index += 1 }
        }
        let maximumDigits = format == .int32 ? 9 : format == .float ? 38 : integerOnly ? 18 : 200
        guard index - digitsStart <= maximumDigits else { return false }
        if index < count && bytes[index] | 0x20 == UInt8(ascii: "e") {
            guard !integerOnly && format != .float else { return false }
            index += 1
            if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard isDigit(index) else { return false }
            let exponentStart = index
            while isDigit(index) { index += 1 }
            guard index - exponentStart <= 2 else { return false }
        }
        position = index
        return true
    }

    private mutating func array(items: Int) -> Bool {
        depth += 1
        guard depth <= Self.maximumDepth else { return false }
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return true
        }
        while true {
            guard items >= 0 ? fits(items) : anyValue() else { return false }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                return true
            default: return false
            }
        }
    }

    /// An object against `schema`, or any object when `nil`.
    private mutating func object(_ schema: FlatSchemas.Node?) -> Bool {
        depth += 1
        guard depth <= Self.maximumDepth else { return false }
        position += 1
        skipWhitespace()
        var requiredSeen: Int32 = 0
        var requiredMask: UInt64 = 0
        var cursor = 0
        if peek() != UInt8(ascii: "}") {
            while true {
                guard peek() == UInt8(ascii: "\""), let key = string() else { return false }
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { return false }
                position += 1
                skipWhitespace()
                if let schema {
                    // An escaped key is looked up by its text on the tape-based path.
                    guard !key.escaped else { return false }
                    if let found = property(key.start, key.end - key.start, in: schema, from: &cursor) {
                        let property = properties[Int(schema.propertyStart) + found]
                        if !property.required && peek() == UInt8(ascii: "n") {
                            // An optional property's `null` reads as absent.
                            guard literal("null") else { return false }
                        } else if !fits(Int(property.schema)) {
                            return false
                        }
                        if property.required {
                            // Counted once each, as ``SchemaCheck`` counts them.
                            guard requiredMask & property.requiredBit == 0 else { return false }
                            requiredMask |= property.requiredBit
                            requiredSeen += 1
                        }
                    } else if schema.additional >= 0 {
                        guard fits(Int(schema.additional)) else { return false }
                    } else if !anyValue() {
                        return false
                    }
                } else if !anyValue() {
                    return false
                }
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                } else {
                    break
                }
            }
            guard peek() == UInt8(ascii: "}") else { return false }
        }
        position += 1
        depth -= 1
        return requiredSeen == (schema?.requiredCount ?? 0)
    }

    /// The position among `schema`'s properties of the one named by the `length` bytes at
    /// `start`, looked for first after the previous one found, as ``SchemaCheck`` looks.
    @inline(__always)
    private func property(_ start: Int, _ length: Int, in schema: FlatSchemas.Node, from cursor: inout Int) -> Int? {
        let count = Int(schema.propertyCount)
        guard count > 0, let names = names.baseAddress else { return nil }
        let first = Int(schema.propertyStart)
        let key = bytes + start
        var position = cursor
        for _ in 0..<count {
            if position == count { position = 0 }
            let property = properties[first + position]
            if Int(property.nameCount) == length && sameName(names + Int(property.nameStart), key, length, keyEnd: start + length) {
                cursor = position + 1
                return position
            }
            position += 1
        }
        return nil
    }

    /// Whether the `length` bytes of a name and of a key are the same: eight bytes at a time
    /// up to 16, else `memcmp`. A name may be read 8 bytes past its start (``FlatSchemas/names``
    /// ends in 8 bytes of padding); a key only within the body.
    @inline(__always)
    private func sameName(_ name: UnsafePointer<UInt8>, _ key: UnsafePointer<UInt8>, _ length: Int, keyEnd: Int) -> Bool {
        @inline(__always) func word(_ pointer: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
            UnsafeRawPointer(pointer + offset).loadUnaligned(as: UInt64.self)
        }
        if length <= 8 && keyEnd - length + 8 <= count {
            let mask: UInt64 = length == 8 ? ~0 : (1 &<< UInt64(length &* 8)) &- 1
            return (word(name, 0) ^ word(key, 0)) & mask == 0
        }
        if length > 8 && length <= 16 {
            return word(name, 0) == word(key, 0) && word(name, length - 8) == word(key, length - 8)
        }
        return memcmp(name, key, length) == 0
    }

    private mutating func stringFits(_ schema: FlatSchemas.Node, _ schemaIndex: Int) -> Bool {
        guard let text = string() else { return false }
        guard schema.hasEnum || schema.isDateTime else { return true }
        // An escaped enum or date-time value is compared by its text on the tape-based path.
        guard !text.escaped else { return false }
        let raw = UnsafeBufferPointer(start: bytes + text.start, count: text.end - text.start)
        if schema.hasEnum {
            return schemas[schemaIndex].enumValues.contains { $0.count == raw.count && $0.elementsEqual(raw) }
        }
        return DateTimeText.isRFC3339(raw)
    }

    /// A string at `position` (its opening quote): the range of its body, and whether it holds
    /// escapes; `nil` unless it is strict JSON: no raw control characters, well-formed UTF-8,
    /// valid escapes, no unpaired surrogate. Eight bytes at a time while none needs a look.
    private mutating func string() -> (start: Int, end: Int, escaped: Bool)? {
        let start = position + 1
        var index = start
        var escaped = false
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while true {
            while index + 8 <= count {
                let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                // A byte is 0x22, 0x5C, below 0x20 or above 0x7F: its high bit is set in `special`
                // (a false alarm now and then past a real one, never below it, so the lowest is
                // real: the byte loop starts there).
                let special =
                    (JSONScanner.zeroByteMask(quote) | JSONScanner.zeroByteMask(backslash) | ((word &- ones &* 0x20) & ~word) | word)
                    & highs
                if special != 0 {
                    index += special.trailingZeroBitCount >> 3
                    break
                }
                index += 8
            }
            guard index < count else { return nil }
            var byte = bytes[index]
            // Text that is not ASCII comes in runs: its sequences are checked back to back,
            // the common two- and three-byte ones inline.
            while byte >= 0x80 {
                if byte >= 0xC2 && byte <= 0xDF && index + 1 < count && bytes[index + 1] & 0xC0 == 0x80 {
                    index += 2
                } else if byte & 0xF0 == 0xE0 && byte != 0xE0 && byte != 0xED && index + 2 < count
                    && bytes[index + 1] & 0xC0 == 0x80 && bytes[index + 2] & 0xC0 == 0x80
                {
                    index += 3
                } else {
                    guard let length = utf8Sequence(at: index) else { return nil }
                    index += length
                }
                guard index < count else { return nil }
                byte = bytes[index]
            }
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return (start, index, escaped)
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
                guard let length = escape(at: index) else { return nil }
                index += length
            } else if byte < 0x20 {
                return nil
            } else {
                index += 1
            }
        }
    }

    /// The length of the valid escape at `index` (a backslash), a surrogate pair's two together.
    private func escape(at index: Int) -> Int? {
        guard index + 1 < count else { return nil }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            return 2
        case UInt8(ascii: "u"):
            guard let unit = hex4(at: index + 2) else { return nil }
            if unit >= 0xDC00 && unit < 0xE000 { return nil }
            guard unit >= 0xD800 && unit < 0xDC00 else { return 6 }
            guard index + 12 <= count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
                let low = hex4(at: index + 8), low >= 0xDC00 && low < 0xE000
            else { return nil }
            return 12
        default: return nil
        }
    }

    private func hex4(at index: Int) -> UInt32? {
        guard index + 4 <= count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = JSONScanner.hexValue(bytes[index + offset]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `index` (RFC 3629: no overlongs, no
    /// surrogates, at most U+10FFFF), whose lead byte is 0x80 or more; `nil` when it is not one.
    private func utf8Sequence(at index: Int) -> Int? {
        let (length, isValid) = JSONString.utf8Sequence(bytes, at: index, before: count)
        return isValid ? length : nil
    }
}
