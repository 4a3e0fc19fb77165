/// Text that came from the network, made safe for the place it is going.
///
/// A server can send any Unicode scalar in a JSON string: escape sequences that clear a
/// terminal or retitle its window (ESC, BEL, the C1 controls), line breaks that forge a second
/// log line, and the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) that
/// make `exe.png` read as `gnp.exe`. Everything Backstop writes of such text goes through
/// one of these two functions first:
///
/// - ``escaped(_:)`` for engineers (log lines, `description`s, the CLI): nothing is lost and
///   nothing acts; ``unescaped(_:)`` gives back what was received.
/// - ``forUser(_:)`` for users (alerts, `userMessage`): the dangerous scalars are removed and
///   the text is otherwise unchanged, whatever its script.
package enum UntrustedText {
    /// Whether an engineer's copy of the text must write `scalar` as an escape: every C0 and C1
    /// control (tab and line feed included, so a line stays one line), DEL, the line and
    /// paragraph separators, and the bidirectional embeddings, overrides and isolates.
    @inline(__always)
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every unsafe scalar written as `\u{HEX}` and every backslash doubled, so the
    /// result holds only printable text on one line and ``unescaped(_:)`` restores the original.
    ///
    /// Text with nothing to escape comes back as it is, without a copy. The result is written as
    /// UTF-8 bytes, not scalar by scalar: a hostile message of a megabyte is escaped in one pass.
    package static func escaped(_ text: String) -> String {
        // Printable ASCII without a backslash, as most paths and IDs are, is read byte by byte:
        // every log line escapes its path, and decoding scalars costs each line far more.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\\") }) else { return text }
        guard text.unicodeScalars.contains(where: { isUnsafe($0) || $0 == "\\" }) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "\\"))
            } else if isUnsafe(scalar) {
                appendEscape(of: scalar.value, to: &bytes)
            } else {
                UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `\u{HEX}` for `value`, in upper-case hexadecimal without leading zeros.
    private static func appendEscape(of value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "{")])
        var shift = 28
        while shift > 0, (value >> UInt32(shift)) & 0xF == 0 { shift -= 4 }
        while shift >= 0 {
            let digit = UInt8((value >> UInt32(shift)) & 0xF)
            bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10)
            shift -= 4
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The text ``escaped(_:)`` was given: `\\` becomes `\` and `\u{HEX}` the scalar it names.
    /// Anything else after a backslash is kept as written.
    package static func unescaped(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
        let input = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < input.count else {
                bytes.append(byte)
                index += 1
                continue
            }
            if input[index + 1] == UInt8(ascii: "\\") {
                bytes.append(byte)
                index += 2
                continue
            }
            if let (scalar, end) = escapedScalar(in: input, at: index) {
                UTF8.encode(scalar) { bytes.append($0) }
                index = end
                continue
            }
            bytes.append(byte)
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The scalar a `\u{HEX}` at `start` names and the index after its `}`, or `nil` when the
    /// bytes there are not one (then they are kept as written).
    private static func escapedScalar(in input: [UInt8], at start: Int) -> (Unicode.Scalar, Int)? {
        guard start + 3 < input.count, input[start + 1] == UInt8(ascii: "u"), input[start + 2] == UInt8(ascii: "{") else {
            return nil
        }
        var value: UInt32 = 0
        var index = start + 3
        // At most eight digits: more cannot name a scalar, and must not overflow.
        while index < input.count, index - (start + 3) <= 8 {
            let byte = input[index]
            if byte == UInt8(ascii: "}") {
                guard index > start + 3, let scalar = Unicode.Scalar(value) else { return nil }
                return (scalar, index + 1)
            }
            guard let digit = JSONScanner.hexValue(byte), index - (start + 3) < 8 else { return nil }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return nil
    }

    /// `text` as a user may see it: controls, DEL and the bidirectional embeddings, overrides
    /// and isolates removed; a line feed kept, a carriage return dropped (so `\r\n` is one line
    /// break) and a tab made a space. Right-to-left scripts, CJK, emoji and their joiners are
    /// untouched: the text's own directionality still lays it out.
    package static func forUser(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result.append(scalar)
            case "\t": result.append(" ")
            case "\u{2028}", "\u{2029}": result.append("\n")
            default: if !isUnsafe(scalar) { result.append(scalar) }
            }
        }
        return String(result)
    }
}
