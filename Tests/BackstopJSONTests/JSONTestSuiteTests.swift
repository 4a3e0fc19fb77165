import BackstopJSON
import Foundation
import TestCorpus
import Testing

/// nst/JSONTestSuite run through strict decoding: the parser must accept exactly what
/// RFC 8259 accepts, and the cases the RFC leaves open must never crash it. Lenient
/// decoding rejects the invalid files too, except the listed ones its options accept. The tests
/// that read the corpus are skipped, saying so, where it is absent.
@Suite struct JSONTestSuiteTests {
    static let parsing = Corpus.files("JSONTestSuite/test_parsing")
    static func names(_ prefix: String) -> [String] {
        parsing.map(\.lastPathComponent).filter { $0.hasPrefix(prefix) }
    }

    static func contents(_ name: String, folder: String = "test_parsing") throws -> Data {
        let root = try #require(Corpus.root, "\(Corpus.absence)")
        return try Data(contentsOf: root.appendingPathComponent("JSONTestSuite/\(folder)/\(name)"))
    }

    /// A corpus missing files would make the parameterized tests below vacuous, silently.
    @Test(.needsCorpus) func corpusIsComplete() {
        #expect(Self.names("y_").count == 95)
        #expect(Self.names("n_").count == 188)
        #expect(Self.names("i_").count > 0)
        #expect(Corpus.files("JSONTestSuite/test_transform").count > 0)
    }

    @Test(.needsCorpus, arguments: names("y_"))
    func acceptsValidDocument(_ name: String) throws {
        let data = try Self.contents(name)
        #expect(throws: Never.self, "\(name) must parse") {
            _ = try ResilientJSONDecoder.strict.decode(JSONValue.self, from: data)
        }
    }

    @Test(.needsCorpus, arguments: names("n_"))
    func rejectsInvalidDocument(_ name: String) throws {
        let data = try Self.contents(name)
        do {
            let value = try ResilientJSONDecoder.strict.decode(JSONValue.self, from: data)
            Issue.record("\(name) must be rejected, decoded \(value)")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.isEmpty)
        } catch {
            Issue.record("\(name): expected DecodingError.dataCorrupted, got \(error)")
        }
    }

    /// The invalid documents that lenient decoding accepts on purpose, with the
    /// ``DecodingPolicy`` options that accept them; lenient rejects every other `n_` file.
    static let acceptedWhenLenient: [String: DecodingPolicy] = [
        // `[,1]`-style trailing commas: `allowTrailingCommas`.
        "n_array_extra_comma.json": .allowTrailingCommas,
        "n_array_number_and_comma.json": .allowTrailingCommas,
        "n_object_trailing_comma.json": .allowTrailingCommas,
        // Python's `json.dumps` literals: `allowNonFiniteNumbers`.
        "n_number_NaN.json": .allowNonFiniteNumbers,
        "n_number_infinity.json": .allowNonFiniteNumbers,
        "n_number_minus_infinity.json": .allowNonFiniteNumbers,
        // Raw U+0000, newline and tab inside a string: `allowControlCharactersInStrings`.
        "n_string_unescaped_ctrl_char.json": .allowControlCharactersInStrings,
        "n_string_unescaped_newline.json": .allowControlCharactersInStrings,
        "n_string_unescaped_tab.json": .allowControlCharactersInStrings,
        // A key holding a lone 0x81 (it becomes U+FFFD), then a trailing comma: both options.
        "n_object_lone_continuation_byte_in_key_and_trailing_comma.json": [.replaceInvalidUnicode, .allowTrailingCommas],
    ]
    static let parsingOptions: [DecodingPolicy] = [
        .allowTrailingCommas, .allowNonFiniteNumbers, .allowControlCharactersInStrings, .replaceInvalidUnicode,
    ]

    @Test(.needsCorpus, arguments: names("n_"))
    func lenientRejectsInvalidDocumentUnlessAnOptionAcceptsIt(_ name: String) throws {
        let data = try Self.contents(name)
        let lenient = Result { try ResilientJSONDecoder.lenient.decodeWithReport(JSONValue.self, from: data) }
        guard let options = Self.acceptedWhenLenient[name] else {
            #expect(lenient.value == nil, "\(name) must be rejected when lenient, decoded \(lenient)")
            return
        }
        let report = try #require(lenient.value, "\(name) must decode when lenient")
        #expect(!report.repairs.isEmpty, "\(name): accepted without a repair")
        // Without any one of its options, lenient rejects it again.
        for needed in Self.parsingOptions where options.contains(needed) {
            #expect(throws: DecodingError.self, "\(name) without \(needed)") {
                _ = try ResilientJSONDecoder(policy: DecodingPolicy.lenient.subtracting(needed)).decode(JSONValue.self, from: data)
            }
        }
    }

    /// Implementation-defined documents: either outcome is fine, but it must be a value or
    /// a `DecodingError`, never a crash or another kind of error.
    @Test(.needsCorpus, arguments: names("i_"))
    func survivesImplementationDefinedDocument(_ name: String) throws {
        try expectValueOrDecodingError(Self.contents(name))
    }

    @Test(.needsCorpus, arguments: Corpus.files("JSONTestSuite/test_transform").map(\.lastPathComponent))
    func survivesTransformDocument(_ name: String) throws {
        try expectValueOrDecodingError(Self.contents(name, folder: "test_transform"))
    }

    private func expectValueOrDecodingError(_ data: Data) {
        for policy in [DecodingPolicy.strict, .lenient] {
            do {
                _ = try ResilientJSONDecoder(policy: policy).decode(JSONValue.self, from: data)
            } catch {
                #expect(error is DecodingError)
            }
        }
    }

    /// Where the RFC leaves the choice open, matching Foundation means an app that switches
    /// decoders sees no difference, so the implementation-defined files must agree with it.
    @Test(.needsCorpus, arguments: names("i_") + names("y_"))
    func agreesWithFoundationOnAcceptance(_ name: String) throws {
        let data = try Self.contents(name)
        let foundation = Result { try JSONDecoder().decode(JSONValue.self, from: data) }
        let ours = Result { try ResilientJSONDecoder.strict.decode(JSONValue.self, from: data) }
        switch (foundation, ours) {
        case (.success(let expected), .success(let actual)):
            #expect(actual == expected, "\(name)")
        case (.failure, .failure):
            break
        default:
            Issue.record("\(name): Foundation \(foundation), ResilientJSONDecoder \(ours)")
        }
    }

    // MARK: Nesting

    private func nested(_ depth: Int, open: String = "[", close: String = "]") -> Data {
        Data((String(repeating: open, count: depth) + String(repeating: close, count: depth)).utf8)
    }

    @Test func acceptsFoundationsMaximumDepth() throws {
        let data = nested(512)
        _ = try JSONDecoder().decode(JSONValue.self, from: data)
        _ = try ResilientJSONDecoder.strict.decode(JSONValue.self, from: data)
        let objects = Data((String(repeating: #"{"a":"#, count: 511) + "{}" + String(repeating: "}", count: 511)).utf8)
        _ = try ResilientJSONDecoder.strict.decode(JSONValue.self, from: objects)
    }

    @Test func rejectsOneLevelMoreThanFoundation() {
        let data = nested(513)
        #expect(ErrorShape(Result { try JSONDecoder().decode(JSONValue.self, from: data) }.error).kind == .dataCorrupted)
        #expect(ErrorShape(Result { try ResilientJSONDecoder.strict.decode(JSONValue.self, from: data) }.error).kind == .dataCorrupted)
    }

    /// Deep nesting is how a hostile payload would try to overflow the stack; the depth
    /// limit must stop the parser long before recursion gets that deep.
    @Test func rejectsHostileNestingWithoutOverflowingTheStack() {
        for data in [nested(100_000), nested(100_000, open: #"{"a":"#, close: "}"), Data(String(repeating: "[", count: 100_000).utf8)] {
            for policy in [DecodingPolicy.strict, .lenient] {
                #expect(throws: DecodingError.self) {
                    _ = try ResilientJSONDecoder(policy: policy).decode(JSONValue.self, from: data)
                }
            }
        }
    }

    // MARK: Encodings

    struct Sample: Codable, Equatable {
        var name: String
        var values: [Int]
        var nested: [String: Double]
    }

    static let sampleText = #"{"name":"Zoë 🎉 \u00e9","values":[1,-2,3],"nested":{"π":3.14}}"#

    static let encodings: [(String, String.Encoding, [UInt8])] = [
        ("UTF-8", .utf8, []),
        ("UTF-8 BOM", .utf8, [0xEF, 0xBB, 0xBF]),
        ("UTF-16LE", .utf16LittleEndian, []),
        ("UTF-16LE BOM", .utf16LittleEndian, [0xFF, 0xFE]),
        ("UTF-16BE", .utf16BigEndian, []),
        ("UTF-16BE BOM", .utf16BigEndian, [0xFE, 0xFF]),
        ("UTF-32LE", .utf32LittleEndian, []),
        ("UTF-32LE BOM", .utf32LittleEndian, [0xFF, 0xFE, 0x00, 0x00]),
        ("UTF-32BE", .utf32BigEndian, []),
        ("UTF-32BE BOM", .utf32BigEndian, [0x00, 0x00, 0xFE, 0xFF]),
    ]

    /// Foundation's table of byte order marks takes `FE FF 00 00` for UTF-32LE, so it reads
    /// the real mark, `FF FE 00 00`, as UTF-16LE and then fails on the zeros. Such a document
    /// is valid Unicode JSON; decoding it is more useful than copying that slip.
    static func foundationMisreads(_ label: String) -> Bool { label == "UTF-32LE BOM" }

    @Test(arguments: encodings.indices)
    func decodesUnicodeEncodingsLikeFoundation(_ index: Int) throws {
        let (label, encoding, bom) = Self.encodings[index]
        let data = Data(bom) + (try #require(Self.sampleText.data(using: encoding)))
        let expected = try JSONDecoder().decode(Sample.self, from: Data(Self.sampleText.utf8))
        #expect(expected.name == "Zoë 🎉 é")
        if !Self.foundationMisreads(label) {
            #expect(try JSONDecoder().decode(Sample.self, from: data) == expected, "\(label)")
        }
        for policy in [DecodingPolicy.strict, .lenient] {
            #expect(try ResilientJSONDecoder(policy: policy).decode(Sample.self, from: data) == expected, "\(label)")
        }
    }

    /// Documents shorter than four bytes leave the encoding to be guessed from fewer zeros.
    @Test(arguments: encodings.indices, ["1", "[]", "\"\"", " 7 "])
    func decodesShortDocumentsLikeFoundation(_ index: Int, _ text: String) throws {
        let (label, encoding, bom) = Self.encodings[index]
        let data = Data(bom) + (try #require(text.data(using: encoding)))
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        let ours = Result { try ResilientJSONDecoder.strict.decode(JSONValue.self, from: data) }
        #expect(ours.value == expected, "\(label) \(text.debugDescription): \(ours)")
        if !Self.foundationMisreads(label) {
            let foundation = Result { try JSONDecoder().decode(JSONValue.self, from: data) }
            #expect(foundation.value == expected, "\(label) \(text.debugDescription): Foundation \(foundation)")
        }
    }

    // MARK: Error details

    @Test func invalidJSONCarriesParseErrorWithPosition() throws {
        let data = Data("{\n  \"a\": 1,\n  \"b\": @\n}".utf8)
        do {
            _ = try ResilientJSONDecoder.strict.decode(JSONValue.self, from: data)
            Issue.record("expected an error")
        } catch DecodingError.dataCorrupted(let context) {
            let parseError = try #require(context.underlyingError as? JSONParseError)
            #expect(parseError.line == 3)
            #expect(parseError.column == 8)
            #expect(parseError.offset == 19)
            #expect(parseError.excerpt.contains("\"b\": @"))
            #expect(!parseError.reason.isEmpty)
            #expect(context.codingPath.isEmpty)
        }
    }

    @Test func lenientDecodingStillRejectsInvalidJSON() {
        for text in ["{", "[1 2]", #"{"a" 1}"#, "nul", "01", "[1,,2]", "", "  "] {
            #expect(throws: DecodingError.self, "\(text.debugDescription)") {
                _ = try ResilientJSONDecoder.lenient.decode(JSONValue.self, from: Data(text.utf8))
            }
        }
    }
}

extension Result where Failure == any Error {
    var value: Success? { try? get() }
    var error: any Error {
        if case .failure(let error) = self { return error }
        return CancellationError()
    }
}
