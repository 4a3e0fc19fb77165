/// What a lenient parse accepted inside a string, found again in its raw bytes so that a
/// repair can name it as written. Runs only for strings the scanner marked.
extension JSONString {
    /// The UTF-8 sequence at `i`, whose lead byte is 0x80 or more: its length when it is well
    /// formed (RFC 3629: no overlongs, no surrogates, at most U+10FFFF), otherwise the length
    /// of its maximal ill-formed subpart, which Unicode replaces with one U+FFFD.
    @inline(__always)
    package static func utf8Sequence(_ bytes: UnsafePointer<UInt8>, at i: Int, before stop: Int) -> (length: Int, isValid: Bool) {
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch bytes[i] {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return (1, false)
        }
        var taken = 1
        while taken < length && i + taken < stop {
            let byte = bytes[i + taken]
            guard byte >= low && byte <= high else { break }
            low = 0x80
            high = 0xBF
            taken += 1
        }
        return (taken, taken == length)
    }

    /// The first ill-formed part of a string body as written (`\ud83d`, `\xE9`, `\xE2\x82`)
    /// and how many there are: unpaired surrogate escapes and maximal ill-formed UTF-8
    /// subparts, each of which became one U+FFFD. `nil` when there are none.
    static func invalidUnicode(in raw: UnsafeBufferPointer<UInt8>) -> (first: String, count: Int)? {
        guard let base = raw.baseAddress else { return nil }
        var first: String?
        var count = 0
        var i = 0
        while i < raw.count {
            let byte = raw[i]
            if byte == UInt8(ascii: "\\") {
                // The scanner validated every escape, so the bytes needed are there.
                guard raw[i + 1] == UInt8(ascii: "u") else {
                    i += 2
                    continue
                }
                let unit = hex4(raw, at: i + 2)
                if unit >= 0xD800 && unit < 0xDC00 && i + 12 <= raw.count
                    && raw[i + 6] == UInt8(ascii: "\\") && raw[i + 7] == UInt8(ascii: "u")
                    && (0xDC00..<0xE000).contains(hex4(raw, at: i + 8))
                {
                    i += 12
                    continue
                }
                if unit >= 0xD800 && unit < 0xE000 {
                    count += 1
                    if first == nil { first = String(decoding: raw[i..<(i + 6)], as: UTF8.self) }
                }
                i += 6
            } else if byte >= 0x80 {
                let sequence = utf8Sequence(base, at: i, before: raw.count)
                if !sequence.isValid {
                    count += 1
                    if first == nil { first = raw[i..<(i + sequence.length)].map { "\\x" + hexDigits($0, 2) }.joined() }
                }
                i += sequence.length
            } else {
                i += 1
            }
        }
        return first.map { ($0, count) }
    }

    /// The first raw control character of a string body, escaped visibly (`\u0009`), and
    /// how many there are; `nil` when there are none.
    static func controlCharacters(in raw: UnsafeBufferPointer<UInt8>) -> (first: String, count: Int)? {
        var first: String?
        var count = 0
        for byte in raw where byte < 0x20 {
            count += 1
            if first == nil { first = "\\u" + hexDigits(byte, 4) }
        }
        return first.map { ($0, count) }
    }

    /// `byte` in upper-case hexadecimal, zero-padded to `width` digits.
    private static func hexDigits(_ byte: UInt8, _ width: Int) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return String(repeating: "0", count: width - digits.count) + digits
    }
}
