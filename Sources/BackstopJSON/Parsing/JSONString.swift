/// String-level helpers: unescaping JSON strings and recognising numbers written as strings.
package enum JSONString {
    /// The text of an escaped JSON string body, and whether an unpaired surrogate escape in
    /// it became U+FFFD; with `replacingInvalidUnicode` off, such an escape is an error.
    /// Ill-formed UTF-8 in `raw` always becomes U+FFFD, as the string's storage repairs it.
    ///
    /// Unescaping only shrinks text, so it is written straight into the new string's storage;
    /// with `isUTF8` (the scanner found `raw` well-formed), into a temporary buffer whose bytes
    /// are copied unchecked instead, since the escapes themselves only ever write well-formed UTF-8.
    static func unescape(
        _ raw: UnsafeBufferPointer<UInt8>, replacingInvalidUnicode: Bool, isUTF8: Bool
    ) -> Result<(text: String, replacedSurrogates: Bool), UnescapeError> {
        var failure: UnescapeError?
        var replacedSurrogates = false
        // Each way spells out its own switch: one nested function serving both cost twitter.json
        // 1% more instructions.
        #if compiler(>=6.2)
            if isUTF8, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                let text = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { output -> String in
                    switch unescape(raw, replacingInvalidUnicode, into: output, replaced: &replacedSurrogates) {
                    case .success(let written):
                        return String(copying: UTF8Span(unchecked: UnsafeBufferPointer(rebasing: output[..<written]).span))
                    case .failure(let error):
                        failure = error
                        return ""
                    }
                }
                if let failure { return .failure(failure) }
                return .success((text, replacedSurrogates))
            }
        #endif
        let text = String(unsafeUninitializedCapacity: raw.count) { output in
            switch unescape(raw, replacingInvalidUnicode, into: output, replaced: &replacedSurrogates) {
            case .success(let written): return written
            case .failure(let error):
                failure = error
                return 0
            }
        }
        if let failure { return .failure(failure) }
        return .success((text, replacedSurrogates))
    }

    /// Writes the unescaped bytes of `raw` into `output`, which holds at least `raw.count`.
    private static func unescape(
        _ raw: UnsafeBufferPointer<UInt8>, _ replacingInvalidUnicode: Bool, into output: UnsafeMutableBufferPointer<UInt8>,
        replaced: inout Bool
    ) -> Result<Int, UnescapeError> {
        var written = 0
        func put(_ byte: UInt8) {
            output[written] = byte
            written += 1
        }
        var i = 0
        let count = raw.count
        while i < count {
            // The text between escapes is copied eight bytes at a time: `written` never passes
            // `i`, so the output has room for every word read.
            if let source = raw.baseAddress, let target = output.baseAddress {
                while i + 8 <= count {
                    let word = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
                    if JSONScanner.zeroByteMask(word ^ 0x5C5C_5C5C_5C5C_5C5C) & 0x8080_8080_8080_8080 != 0 { break }
                    UnsafeMutableRawPointer(target + written).storeBytes(of: word, as: UInt64.self)
                    i += 8
                    written += 8
                }
                if i == count { break }
            }
            let byte = raw[i]
            if byte != UInt8(ascii: "\\") {
                put(byte)
                i += 1
                continue
            }
            // The scanner validated every escape, so the bytes needed are there.
            let code = raw[i + 1]
            i += 2
            switch code {
            case UInt8(ascii: "b"): put(0x08)
            case UInt8(ascii: "f"): put(0x0C)
            case UInt8(ascii: "n"): put(0x0A)
            case UInt8(ascii: "r"): put(0x0D)
            case UInt8(ascii: "t"): put(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(raw, at: i)
                i += 4
                surrogates: if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard i + 6 <= count, raw[i] == UInt8(ascii: "\\"), raw[i + 1] == UInt8(ascii: "u") else {
                        guard replacingInvalidUnicode else {
                            return .failure(
                                UnescapeError(reason: "Unpaired high surrogate \\u\(String(scalar, radix: 16, uppercase: true))"))
                        }
                        scalar = replacementCharacter
                        replaced = true
                        break surrogates
                    }
                    let low = hex4(raw, at: i + 2)
                    guard low >= 0xDC00 && low < 0xE000 else {
                        // The escape that follows is read on its own, as what it is.
                        guard replacingInvalidUnicode else {
                            return .failure(UnescapeError(reason: "High surrogate not followed by a low surrogate"))
                        }
                        scalar = replacementCharacter
                        replaced = true
                        break surrogates
                    }
                    i += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    guard replacingInvalidUnicode else {
                        return .failure(UnescapeError(reason: "Unpaired low surrogate \\u\(String(scalar, radix: 16, uppercase: true))"))
                    }
                    scalar = replacementCharacter
                    replaced = true
                }
                // At most four bytes from at least six: always room.
                switch scalar {
                case 0..<0x80:
                    put(UInt8(scalar))
                case 0x80..<0x800:
                    put(UInt8(0xC0 | scalar >> 6))
                    put(UInt8(0x80 | scalar & 0x3F))
                case 0x800..<0x10000:
                    put(UInt8(0xE0 | scalar >> 12))
                    put(UInt8(0x80 | scalar >> 6 & 0x3F))
                    put(UInt8(0x80 | scalar & 0x3F))
                default:
                    put(UInt8(0xF0 | scalar >> 18))
                    put(UInt8(0x80 | scalar >> 12 & 0x3F))
                    put(UInt8(0x80 | scalar >> 6 & 0x3F))
                    put(UInt8(0x80 | scalar & 0x3F))
                }
            default: put(code)  // \" \\ \/
            }
        }
        return .success(written)
    }

    /// U+FFFD, what an ill-formed part of a string becomes.
    static let replacementCharacter: UInt32 = 0xFFFD

    struct UnescapeError: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    static func hex4(_ raw: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt32 {
        var value: UInt32 = 0
        for j in i..<(i + 4) { value = value << 4 | UInt32(JSONScanner.hexValue(raw[j]) ?? 0) }
        return value
    }

    /// Whether a string's bytes are exactly a JSON number (`"42"`, `"-12.5"`, `"1e3"`),
    /// so that reading it as a number loses nothing. Whitespace, `+`, hex and the like are not.
    static func numberShape(_ raw: UnsafeBufferPointer<UInt8>) -> (integer: Bool, negative: Bool)? {
        var i = 0
        let count = raw.count
        var integer = true
        let negative = count > 0 && raw[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        func digit(_ at: Int) -> Bool { at < count && raw[at] &- 48 < 10 }
        guard digit(i) else { return nil }
        if raw[i] == UInt8(ascii: "0") { i += 1 } else { while digit(i) { i += 1 } }
        if i < count && raw[i] == UInt8(ascii: ".") {
            integer = false
            i += 1
            guard digit(i) else { return nil }
            while digit(i) { i += 1 }
        }
        if i < count && (raw[i] == UInt8(ascii: "e") || raw[i] == UInt8(ascii: "E")) {
            integer = false
            i += 1
            if i < count && (raw[i] == UInt8(ascii: "+") || raw[i] == UInt8(ascii: "-")) { i += 1 }
            guard digit(i) else { return nil }
            while digit(i) { i += 1 }
        }
        return i == count ? (integer, negative) : nil
    }
}
