import BackstopJSON
import PropertyBased
import Testing

/// The rules every text from the network follows on its way to an engineer or a user.
@Suite("Untrusted text")
struct UntrustedTextTests {
    /// Each scalar a server can use against a terminal, a log viewer or a reader.
    static let hostile: [Unicode.Scalar] = [
        "\u{0}", "\u{7}", "\u{8}", "\u{9}", "\u{A}", "\u{B}", "\u{C}", "\u{D}", "\u{1B}", "\u{1F}", "\u{7F}",
        "\u{80}", "\u{85}", "\u{9B}", "\u{9F}", "\u{2028}", "\u{2029}",
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
    ]

    /// Right-to-left scripts, CJK, emoji with joiners and skin tones, combining marks: none is touched.
    static let legitimate = [
        "مرحبا بالعالم", "שלום עולם", "班级不存在", "잘못된 팀 코드", "👨‍👩‍👧‍👦 👍🏽", "é vs e\u{301}", "ok: 100%",
    ]

    static func hasUnsafeScalar(_ text: String) -> Bool { text.unicodeScalars.contains(where: UntrustedText.isUnsafe) }

    @Test("every control, DEL, line separator and bidi control is unsafe; printable text is not")
    func unsafeScalars() {
        for scalar in Self.hostile { #expect(UntrustedText.isUnsafe(scalar), "U+\(String(scalar.value, radix: 16))") }
        for text in Self.legitimate { #expect(!Self.hasUnsafeScalar(text), "\(text)") }
        #expect(!UntrustedText.isUnsafe(" "))
        #expect(!UntrustedText.isUnsafe("\u{200D}"))  // the zero-width joiner of emoji sequences
    }

    @Test("for engineers: each unsafe scalar is written as a visible escape, on one line")
    func escapedForEngineers() {
        #expect(UntrustedText.escaped("\u{1B}[2J") == #"\u{1B}[2J"#)
        #expect(UntrustedText.escaped("a\nb\tc\r") == #"a\u{A}b\u{9}c\u{D}"#)
        #expect(UntrustedText.escaped("ok\u{202E}gnp.exe") == #"ok\u{202E}gnp.exe"#)
        #expect(UntrustedText.escaped(#"C:\temp"#) == #"C:\\temp"#)
        for scalar in Self.hostile {
            let escaped = UntrustedText.escaped("x\(scalar)y")
            #expect(!Self.hasUnsafeScalar(escaped))
            #expect(escaped == "x\\u{\(String(scalar.value, radix: 16, uppercase: true))}y")
        }
        for text in Self.legitimate { #expect(UntrustedText.escaped(text) == text) }
    }

    static let lookalikes = [
        #"literal \u{1B} typed by a user"#, "\\", "\\\\u{41}", "\u{1B}]0;pwned\u{7} ok\u{202E}gnp.exe\nfake: line",
        #"\u{"#, #"\u{110000}"#, #"\u{zz}"#,
    ]

    /// The scalars of escapes and their lookalikes, mixed with unsafe and ordinary ones.
    static let alphabet: [Unicode.Scalar] = hostile + ["\\", "u", "{", "}", "1", "B", "a", " ", "é", "中", "\u{1F44D}"]

    @Test("escaped text round-trips what was received, backslashes and escape lookalikes included")
    func roundTrip() async {
        for text in Self.lookalikes + Self.legitimate {
            let escaped = UntrustedText.escaped(text)
            #expect(!Self.hasUnsafeScalar(escaped))
            #expect(UntrustedText.unescaped(escaped) == text, "\(escaped.debugDescription)")
        }
        await propertyCheck(count: 2_000, input: Gen.element(of: Self.alphabet).array(of: 0...24)) { scalars in
            let text = String(String.UnicodeScalarView(scalars.compactMap { $0 }))
            let escaped = UntrustedText.escaped(text)
            #expect(!Self.hasUnsafeScalar(escaped))
            #expect(UntrustedText.unescaped(escaped) == text, "\(escaped.debugDescription)")
        }
    }

    @Test("for users: controls and bidi overrides removed, a line break kept, everything else unchanged")
    func forUsers() {
        #expect(UntrustedText.forUser("\u{1B}[2J\u{1B}]0;pwned\u{7} ok\u{202E}gnp.exe\nfake: line") == "[2J]0;pwned okgnp.exe\nfake: line")
        #expect(UntrustedText.forUser("one\r\ntwo\tthree") == "one\ntwo three")
        #expect(UntrustedText.forUser("a\u{0}b\u{85}c\u{9B}d\u{7F}e\u{2066}f\u{2069}") == "abcdef")
        for text in Self.legitimate { #expect(UntrustedText.forUser(text) == text) }
        for scalar in Self.hostile {
            let cleaned = UntrustedText.forUser("x\(scalar)y")
            #expect(!cleaned.unicodeScalars.contains { UntrustedText.isUnsafe($0) && $0 != "\n" })
        }
    }

    @Test("a 1 MB message is cleaned whole, in both directions")
    func oneMegabyte() {
        let message = String(repeating: "\u{1B}[31m红\u{202E}\n", count: 1 << 17)
        let escaped = UntrustedText.escaped(message)
        #expect(!Self.hasUnsafeScalar(escaped))
        #expect(UntrustedText.unescaped(escaped) == message)
        #expect(UntrustedText.forUser(message) == String(repeating: "[31m红\n", count: 1 << 17))
    }
}
