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
    /// Text with nothing to escape comes back as it is, without a copy.
    package static func escaped(_ text: String) -> String {
        // Printable ASCII without a backslash, as most paths and IDs are, is read byte by byte:
        // every log line escapes its path, and decoding scalars costs each line far more.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\\") }) else { return text }
        guard text.unicodeScalars.contains(where: { isUnsafe($0) || $0 == "\\" }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                result.append(contentsOf: "\\\\".unicodeScalars)
            } else if isUnsafe(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The text ``escaped(_:)`` was given: `\\` becomes `\` and `\u{HEX}` the scalar it names.
    /// Anything else after a backslash is kept as written.
    package static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "\\", index + 1 < scalars.count else {
                result.append(scalar)
                index += 1
                continue
            }
            if scalars[index + 1] == "\\" {
                result.append("\\")
                index += 2
                continue
            }
            if scalars[index + 1] == "u", index + 2 < scalars.count, scalars[index + 2] == "{",
                let close = scalars[(index + 3)...].firstIndex(of: "}"),
                let value = UInt32(String(String.UnicodeScalarView(scalars[(index + 3)..<close])), radix: 16),
                let decoded = Unicode.Scalar(value)
            {
                result.append(decoded)
                index = close + 1
                continue
            }
            result.append(scalar)
            index += 1
        }
        return String(result)
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
