import Foundation

/// Validates a UTF-8 JSON document against RFC 8259 and records every value on a tape.
///
/// One pass, no allocation per value: strings and numbers stay as byte ranges of the
/// document and are converted only when a `Decodable` asks for them.
package struct JSONScanner {
    /// Foundation accepts 512 levels of nesting and rejects the 513th; so do we.
    static let maximumDepth = 512

    private let document: JSONDocument
    private let bytes: UnsafePointer<UInt8>
    private let end: Int
    private let allowsTrailingCommas: Bool
    private let allowsControlCharacters: Bool
    private let replacesInvalidUTF8: Bool
    private let allowsNonFiniteNumbers: Bool
    private var position = 0
    /// The containers enclosing the current position, innermost last.
    private var open: ScanStack<OpenContainer>
    /// Reused across objects to find repeated keys without allocating per object.
    private var keyTable: [Int32] = []

    /// Parses `document`'s bytes, filling its tape, accepting what `policy`'s parsing options allow.
    ///
    /// What the strict grammar rejects but `policy` accepts is marked on the tape (trailing
    /// commas in the document, dirty strings and non-finite numbers in their nodes' flags)
    /// for the decoder to report as repairs.
    static func scan(_ document: JSONDocument, policy: DecodingPolicy) throws(JSONParseError) {
        // Room on the thread's stack for 32 levels of nesting, which real payloads stay within.
        try withUnsafeTemporaryAllocation(of: OpenContainer.self, capacity: 32) { (storage) throws(JSONParseError) in
            var scanner = JSONScanner(document: document, policy: policy, stack: storage)
            defer { scanner.open.release() }
            try scanner.scanDocument()
        }
        document.finishTape()
    }

    private init(document: JSONDocument, policy: DecodingPolicy, stack: UnsafeMutableBufferPointer<OpenContainer>) {
        self.open = ScanStack(lending: stack)
        self.document = document
        self.bytes = UnsafePointer(document.base)
        self.end = document.byteCount
        self.allowsTrailingCommas = policy.contains(.allowTrailingCommas)
        self.allowsControlCharacters = policy.contains(.allowControlCharactersInStrings)
        self.replacesInvalidUTF8 = policy.contains(.replaceInvalidUnicode)
        self.allowsNonFiniteNumbers = policy.contains(.allowNonFiniteNumbers)
    }

    private func fail(_ reason: String, at offset: Int) -> JSONParseError {
        JSONParseError(reason, offset: offset, in: UnsafeBufferPointer(start: bytes, count: end))
    }

    private func describe(_ offset: Int) -> String {
        guard offset < end else { return "end of file" }
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func scanDocument() throws(JSONParseError) {
        guard end < Int(UInt32.max) else {
            throw fail("Documents of 4 GiB or more are not supported", at: 0)
        }
        skipWhitespace()
        guard position < end else { throw fail("Unexpected end of file: the document is empty", at: position) }
        try scanValue()
        skipWhitespace()
        if position < end {
            throw fail("Unexpected \(describe(position)) after the top-level value", at: position)
        }
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < end {
            guard Self.isWhitespace(bytes[position]) else { return }
            position += 1
            // Pretty-printed documents indent with runs of spaces: up to eight at a time, the
            // lowest byte that is not a space ending the run (the loads are little-endian).
            while position + 8 <= end {
                let notSpaces = UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self) ^ 0x2020_2020_2020_2020
                if notSpaces != 0 {
                    position += notSpaces.trailingZeroBitCount >> 3
                    break
                }
                position += 8
            }
        }
    }

    /// An array or object whose closing bracket has not been reached yet.
    private struct OpenContainer {
        let index: Int
        let isObject: Bool
        var count: UInt32 = 0
        var flags: JSONNode.Flags = []

        var closing: UInt8 { isObject ? UInt8(ascii: "}") : UInt8(ascii: "]") }
    }

    /// Scans one value, containers and all, with an explicit stack instead of recursion: deep
    /// nesting costs heap (``ScanStack``) rather than the thread's stack, which is small off the
    /// main thread.
    private mutating func scanValue() throws(JSONParseError) {
        nextValue: while true {
            guard position < end else { throw fail("Unexpected end of file, expected a value", at: position) }
            let first = bytes[position]
            switch first {
            case UInt8(ascii: "\""):
                _ = try scanString(isKey: false)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open.count < Self.maximumDepth else {
                    throw fail("Too many nested arrays or objects (more than \(Self.maximumDepth) levels)", at: position)
                }
                let container = OpenContainer(
                    index: document.append(
                        JSONNode(
                            kind: first == UInt8(ascii: "{") ? .object : .array, flags: [], start: UInt32(position), length: 0, aux: 0)),
                    isObject: first == UInt8(ascii: "{"))
                position += 1
                skipWhitespace()
                if position < end && bytes[position] == container.closing {
                    position += 1
                    document[container.index].aux = UInt32(document.count)
                } else {
                    open.append(container)
                    if open.count > document.maxDepth { document.maxDepth = open.count }
                    if container.isObject { try scanKey() }
                    continue nextValue
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try scanNumber()
            case UInt8(ascii: "t"):
                try scanLiteral("true", kind: .true)
            case UInt8(ascii: "f"):
                try scanLiteral("false", kind: .false)
            case UInt8(ascii: "n"):
                try scanLiteral("null", kind: .null)
            case UInt8(ascii: "N") where allowsNonFiniteNumbers:
                try scanLiteral("NaN", kind: .number, flags: .nonFinite)
            case UInt8(ascii: "I") where allowsNonFiniteNumbers:
                try scanLiteral("Infinity", kind: .number, flags: .nonFinite)
            default:
                throw fail("Unexpected \(describe(position)), expected a value", at: position)
            }
            // A value ended: it counts for its container, and may end that container too.
            while !open.isEmpty {
                let top = open.top
                open.top.count += 1
                skipWhitespace()
                guard position < end else {
                    throw fail("Unexpected end of file, expected ',' or '\(Character(Unicode.Scalar(top.closing)))'", at: position)
                }
                let byte = bytes[position]
                if byte == UInt8(ascii: ",") {
                    let comma = position
                    position += 1
                    skipWhitespace()
                    guard position < end && bytes[position] == top.closing else {
                        if top.isObject { try scanKey() }
                        continue nextValue
                    }
                    guard allowsTrailingCommas else {
                        throw fail("Trailing comma before '\(Character(Unicode.Scalar(top.closing)))'", at: comma)
                    }
                    document.trailingCommas.append((top.index, comma))
                } else if byte != top.closing {
                    let after = top.isObject ? "an object member" : "an array element"
                    throw fail(
                        "Unexpected \(describe(position)) after \(after), expected ',' or '\(Character(Unicode.Scalar(top.closing)))'",
                        at: position)
                }
                position += 1
                close(open.removeLast())
            }
            return
        }
    }

    /// Scans an object member's key and the colon after it.
    private mutating func scanKey() throws(JSONParseError) {
        guard position < end, bytes[position] == UInt8(ascii: "\"") else {
            throw fail("Unexpected \(describe(position)), expected a key in double quotes", at: position)
        }
        if try scanString(isKey: true) { open.top.flags.insert(.slowKeys) }
        skipWhitespace()
        guard position < end, bytes[position] == UInt8(ascii: ":") else {
            throw fail("Unexpected \(describe(position)) after a key, expected ':'", at: position)
        }
        position += 1
        skipWhitespace()
    }

    private mutating func close(_ container: OpenContainer) {
        var flags = container.flags
        if container.isObject && container.count > 1 && !flags.contains(.slowKeys)
            && hasRepeatedKey(object: container.index, count: Int(container.count))
        {
            flags.insert(.slowKeys)
        }
        document[container.index].flags = flags
        document[container.index].length = container.count
        document[container.index].aux = UInt32(document.count)
    }

    /// Scans `literal`; a non-finite number's node starts at `start` when a sign comes before it.
    private mutating func scanLiteral(
        _ literal: StaticString, kind: JSONNode.Kind, flags: JSONNode.Flags = [], from start: Int? = nil
    ) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let expected = literal.utf8Start
        guard end - position >= count else { throw fail("Invalid literal, expected '\(literal)'", at: position) }
        // `true`, `null` and `false` (its first four bytes, then one) compared as one word:
        // the byte loop alone cost twitter.json 1% more instructions. The loop finds where a
        // mismatch is.
        let matches =
            count >= 4 && count <= 5
            && UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt32.self)
                == UnsafeRawPointer(expected).loadUnaligned(as: UInt32.self)
            && (count == 4 || bytes[position + 4] == expected[4])
        if !matches {
            for i in 0..<count where bytes[position + i] != expected[i] {
                throw fail("Invalid literal, expected '\(literal)'", at: position + i)
            }
        }
        let start = start ?? position
        position += count
        _ = document.append(JSONNode(kind: kind, flags: flags, start: UInt32(start), length: UInt32(position - start), aux: 0))
    }

    /// Whether two keys of the object at `object` may be byte-for-byte equal.
    ///
    /// Lookups may start in the middle of an object; that is only sound when every key is
    /// unique, so objects that repeat a key are marked to be searched from the start,
    /// where the first occurrence wins as in Foundation.
    ///
    /// Linear whatever the keys: it stops at the first repeat, and a probe longer than
    /// `maximumProbe` (keys crafted to share a hash) answers "may repeat", which only
    /// costs the object the slower, still linear, lookups. Without both, one key repeated
    /// n times, or n keys sharing a hash, took n² steps.
    private mutating func hasRepeatedKey(object: Int, count: Int) -> Bool {
        if count <= 8 { return hasRepeatedKeyAmongFew(object: object, count: count) }
        let maximumProbe = 32
        // Open addressing over the keys' hashes, in a table reused across objects.
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        if keyTable.count < capacity { keyTable = [Int32](repeating: -1, count: capacity) }
        let mask = capacity - 1
        var repeated = false
        var key = object + 1
        var inserted = 0
        let document = self.document
        keyTable.withUnsafeMutableBufferPointer { table in
            insertion: while inserted < count {
                let hash = document[key].aux
                var slot = Int(hash) & mask
                var probes = 0
                while table[slot] >= 0 {
                    let other = Int(table[slot])
                    probes += 1
                    if probes > maximumProbe
                        || (document[other].aux == hash && Self.sameKey(other, key, in: document))
                    {
                        repeated = true
                        break insertion
                    }
                    slot = (slot + 1) & mask
                }
                table[slot] = Int32(key)
                inserted += 1
                key = document.next(after: key + 1)
            }
            // Clear only what was used, so large tables cost nothing for small objects.
            key = object + 1
            for _ in 0..<inserted {
                var slot = Int(document[key].aux) & mask
                while table[slot] >= 0 {
                    table[slot] = -1
                    slot = (slot + 1) & mask
                }
                key = document.next(after: key + 1)
            }
        }
        return repeated
    }

    /// Small objects, the common case, compare every pair of keys: no table to allocate.
    private func hasRepeatedKeyAmongFew(object: Int, count: Int) -> Bool {
        var keys = (0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &keys) { raw in
            let indices = raw.bindMemory(to: Int.self)
            var key = object + 1
            for position in 0..<count {
                for earlier in 0..<position where document[indices[earlier]].aux == document[key].aux {
                    if Self.sameKey(indices[earlier], key, in: document) { return true }
                }
                indices[position] = key
                key = document.next(after: key + 1)
            }
            return false
        }
    }

    private static func sameKey(_ a: Int, _ b: Int, in document: JSONDocument) -> Bool {
        let left = document.raw(document[a])
        let right = document.raw(document[b])
        return left.count == right.count
            && memcmp(document.base + Int(document[a].start), document.base + Int(document[b].start), left.count) == 0
    }

    /// Scans a string starting at its opening quote; returns whether it contains escapes or
    /// accepted dirt, or for a key, whether it must be compared decoded (escaped or not ASCII).
    @discardableResult
    private mutating func scanString(isKey: Bool) throws(JSONParseError) -> Bool {
        let start = position + 1
        position = start
        var flags: JSONNode.Flags = []
        // Non-ASCII text is validated once the string's end is known, so runs of it do not
        // leave the eight-byte loop.
        var highBits: UInt64 = 0
        while true {
            while position + 8 <= end {
                let word = UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self)
                let special =
                    Self.zeroByteMask(word ^ 0x2222_2222_2222_2222)
                    | Self.zeroByteMask(word ^ 0x5C5C_5C5C_5C5C_5C5C)
                    | ((word &- 0x2020_2020_2020_2020) & ~word)
                let flagged = special & 0x8080_8080_8080_8080
                if flagged != 0 {
                    // The lowest flag is always real (false ones only sit above a real one):
                    // jump straight to that byte.
                    let skip = flagged.trailingZeroBitCount >> 3
                    highBits |= word & ((1 &<< UInt64(skip &* 8)) &- 1)
                    position += skip
                    break
                }
                highBits |= word
                position += 8
            }
            guard position < end else { throw fail("Unterminated string", at: start - 1) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                flags.insert(.escaped)
                try scanEscape()
            } else if byte < 0x20 {
                guard allowsControlCharacters else {
                    throw fail("Unescaped control character \(describe(position)) in a string", at: position)
                }
                flags.insert(.controlCharacters)
                position += 1
            } else {
                highBits |= UInt64(byte)
                position += 1
            }
        }
        let nonASCII = highBits & 0x8080_8080_8080_8080 != 0
        if nonASCII, let problem = utf8Problem(from: start, to: position) {
            guard replacesInvalidUTF8 else { throw fail(problem.reason, at: problem.offset) }
            flags.insert(.invalidUTF8)
        }
        let length = position - start
        var hash: UInt32 = 0
        if isKey { hash = Self.keyHash(UnsafeBufferPointer(start: bytes + start, count: length)) }
        // Keys match as Swift strings do, by canonical equivalence, which bytes alone cannot tell.
        let slowKey = !flags.isEmpty || (isKey && nonASCII)
        if nonASCII { flags.insert(.nonASCII) }
        _ = document.append(JSONNode(kind: .string, flags: flags, start: UInt32(start), length: UInt32(length), aux: hash))
        position += 1
        return slowKey
    }

    /// The first place where a string body is not UTF-8 (RFC 3629: no overlongs, no surrogates,
    /// at most U+10FFFF), or `nil` when it all is.
    ///
    /// Not an error yet: building one counts lines from the document's start, which a lenient
    /// scan that accepts many such strings must not pay for each.
    private func utf8Problem(from start: Int, to stop: Int) -> (reason: String, offset: Int)? {
        var i = start
        while i < stop {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                while i + 8 <= stop && UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                }
                continue
            }
            // Well-formed two- and three-byte sequences (accented Latin, Greek, Cyrillic, Arabic,
            // CJK: most non-ASCII text) are checked as one little-endian word of four bytes, which
            // the document holds when the third is in the body (`stop` is the closing quote's
            // offset); the last two bytes of a body take the full rules below.
            if i + 3 <= stop {
                let word = UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt32.self)
                // 110xxxxx 10xxxxxx, not an overlong C0 or C1 lead.
                if word & 0xC0E0 == 0x80C0 && word & 0x1E != 0 {
                    i += 2
                    continue
                }
                // 1110xxxx 10xxxxxx 10xxxxxx, neither overlong (E0 then 80...9F: the lead's low
                // bits and the second byte's 0x20 all clear) nor a surrogate (ED then A0...BF).
                let bits = word & 0x200F
                if word & 0xC0_C0F0 == 0x80_80E0 && bits != 0 && bits != 0x200D {
                    i += 3
                    continue
                }
            }
            let sequence = JSONString.utf8Sequence(bytes, at: i, before: stop)
            guard sequence.isValid else {
                if sequence.length == 1 && (lead < 0xC2 || lead > 0xF4) {
                    return ("Invalid UTF-8 byte 0x\(String(lead, radix: 16, uppercase: true)) in a string", i)
                }
                let expectedLength = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                if i + expectedLength > stop { return ("Truncated UTF-8 sequence in a string", i) }
                return ("Invalid UTF-8 sequence in a string", i)
            }
            i += sequence.length
        }
        return nil
    }

    /// Whether `byte` is one of the four RFC 8259 allows between tokens: space, tab, line feed
    /// and carriage return.
    @inlinable
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Whether `data` holds no JSON text at all: empty, or whitespace only.
    package static func isBlank(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in !bytes.contains { !isWhitespace($0) } }
    }

    /// Masked with `0x8080…`, the high bit of each byte of `word` that is zero; a byte above the
    /// lowest zero one may be flagged too, so only "any" and "the lowest" can be trusted.
    @inlinable
    package static func zeroByteMask(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word
    }

    /// A hash of a key's raw bytes from its length and its first and last eight bytes:
    /// constant time whatever the key's length. Collisions only cost a comparison of the bytes.
    ///
    /// A key of four to seven bytes is read as two overlapping four-byte words, and a shorter
    /// one by its first, middle and last byte, which with the length tell every such key
    /// apart: a loop over the bytes of short keys cost citm_catalog.json 0.7% of its decode.
    @inline(__always)
    static func keyHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let count = bytes.count
        var first: UInt64 = 0
        var last: UInt64 = 0
        if let base = bytes.baseAddress, count > 0 {
            let raw = UnsafeRawPointer(base)
            if count >= 8 {
                first = raw.loadUnaligned(as: UInt64.self)
                last = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else if count >= 4 {
                first =
                    UInt64(raw.loadUnaligned(as: UInt32.self))
                    | UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)) << 32
            } else {
                first = UInt64(base[0]) | UInt64(base[count >> 1]) << 8 | UInt64(base[count - 1]) << 16
            }
        }
        let mixed = (first ^ (last &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(count)) &* 0xBF58_476D_1CE4_E5B9
        return UInt32(truncatingIfNeeded: mixed >> 32)
    }

    private mutating func scanEscape() throws(JSONParseError) {
        guard position + 1 < end else { throw fail("Unterminated escape sequence", at: position) }
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            guard position + 6 <= end else { throw fail("Unterminated \\u escape", at: position) }
            for i in 2..<6 where JSONScanner.hexValue(bytes[position + i]) == nil {
                throw fail("Invalid \\u escape: expected four hex digits", at: position)
            }
            position += 6
        default:
            throw fail("Invalid escape sequence \\\(describe(position + 1))", at: position)
        }
    }

    @inlinable
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func scanNumber() throws(JSONParseError) {
        let start = position
        var flags: JSONNode.Flags = .integer
        if bytes[position] == UInt8(ascii: "-") {
            flags.insert(.negative)
            position += 1
        }
        guard position < end, isDigit(bytes[position]) else {
            if allowsNonFiniteNumbers && position < end && bytes[position] == UInt8(ascii: "I") {
                return try scanLiteral("Infinity", kind: .number, flags: [.nonFinite, .negative], from: start)
            }
            throw fail("Invalid number: expected a digit after '-'", at: position)
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            skipDigits()
        }
        if position < end && bytes[position] == UInt8(ascii: ".") {
            flags.remove(.integer)
            position += 1
            guard position < end, isDigit(bytes[position]) else {
                throw fail("Invalid number: expected a digit after '.'", at: position)
            }
            skipDigits()
        }
        if position < end && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            flags.remove(.integer)
            position += 1
            if position < end && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) {
                position += 1
            }
            guard position < end, isDigit(bytes[position]) else {
                throw fail("Invalid number: expected a digit in the exponent", at: position)
            }
            skipDigits()
        }
        _ = document.append(
            JSONNode(
                kind: .number, flags: flags, start: UInt32(start), length: UInt32(position - start), aux: 0))
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    private mutating func skipDigits() {
        // Eight at a time: a byte is a digit when its high nibble is 3 and its low nibble plus 6
        // does not carry into the high one; the lowest byte that is not ends the run.
        while position + 8 <= end {
            let word = UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self)
            let notDigits =
                ((word & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030)
                | (((word & 0x0F0F_0F0F_0F0F_0F0F) &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0)
            if notDigits != 0 {
                position += notDigits.trailingZeroBitCount >> 3
                return
            }
            position += 8
        }
        while position < end && isDigit(bytes[position]) { position += 1 }
    }
}
