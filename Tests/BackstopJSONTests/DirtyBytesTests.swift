import BackstopJSON
import Foundation
import Testing

/// The byte-level dirt real backends send: lenient decoding keeps the value and reports a
/// repair at its path, each option off gives today's error, and strict stays Foundation's.
@Suite struct DirtyBytesTests {
    struct Message: Decodable, Equatable {
        var id: Int
        var text: String
    }

    struct Inbox: Decodable, Equatable {
        var messages: [Message]
    }

    /// An inbox whose second message's text is `text` as raw bytes (without its quotes).
    static func inbox(text: [UInt8]) -> Data {
        Data(#"{"messages":[{"id":1,"text":"hi"},{"id":2,"text":""#.utf8) + Data(text)
            + Data(#""},{"id":3,"text":"bye"}]}"#.utf8)
    }

    static func repair(
        _ excerpt: String, _ action: Repair.Action, reason: String? = nil, kind: JSONKind = .string,
        path: String = "$.messages[1].text", expected: String = "String"
    ) -> Repair {
        Repair(path: path, expected: expected, found: .init(kind: kind, excerpt: excerpt), action: action, reason: reason)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data, policy: DecodingPolicy = .lenient) throws -> DecodingReport<T> {
        try ResilientJSONDecoder(policy: policy).decodeWithReport(type, from: data)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ json: String, policy: DecodingPolicy = .lenient) throws -> DecodingReport<T> {
        try decode(type, Data(json.utf8), policy: policy)
    }

    // MARK: The issue's four cases

    @Test func unpairedSurrogateBecomesReplacementCharacter() throws {
        let result = try Self.decode(Inbox.self, Self.inbox(text: Array(#"cut \ud83d"#.utf8)))
        #expect(result.value.messages.map(\.text) == ["hi", "cut \u{FFFD}", "bye"])
        #expect(
            result.repairs == [Self.repair(#"\ud83d"#, .replacedInvalidUnicode, reason: "1 ill-formed Unicode part replaced with U+FFFD")])
    }

    @Test func latin1ByteBecomesReplacementCharacter() throws {
        let result = try Self.decode(Inbox.self, Self.inbox(text: Array("caf".utf8) + [0xE9, 0x20, 0xFF]))
        #expect(result.value.messages.map(\.text) == ["hi", "caf\u{FFFD} \u{FFFD}", "bye"])
        #expect(
            result.repairs == [
                Self.repair(
                    #"\xE9"#, .replacedInvalidUnicode,
                    reason: "2 ill-formed Unicode parts replaced with U+FFFD; found shows the first")
            ])
    }

    @Test func rawControlCharactersAreKept() throws {
        let result = try Self.decode(Inbox.self, Self.inbox(text: Array("a\tb\nc".utf8)))
        #expect(result.value.messages.map(\.text) == ["hi", "a\tb\nc", "bye"])
        #expect(
            result.repairs == [
                Self.repair(
                    #"\u0009"#, .acceptedControlCharacter,
                    reason: "2 raw control characters kept; found shows the first")
            ])
    }

    struct Reading: Decodable, Equatable {
        var id: Int
        var value: Double
    }

    @Test func nonFiniteLiteralsDecodeIntoDouble() throws {
        let result = try Self.decode([Reading].self, #"[{"id":1,"value":NaN},{"id":2,"value":Infinity},{"id":3,"value":-Infinity}]"#)
        #expect(result.value.count == 3)
        #expect(result.value[0].value.isNaN)
        #expect(result.value[1].value == .infinity)
        #expect(result.value[2].value == -.infinity)
        #expect(
            result.repairs == [
                Self.repair("NaN", .acceptedNonFiniteNumber, kind: .number, path: "$[0].value", expected: "Double"),
                Self.repair("Infinity", .acceptedNonFiniteNumber, kind: .number, path: "$[1].value", expected: "Double"),
                Self.repair("-Infinity", .acceptedNonFiniteNumber, kind: .number, path: "$[2].value", expected: "Double"),
            ])
    }

    // MARK: Each option off, and strict

    static let dirtyInboxes: [(DecodingPolicy, Data)] = [
        (.replaceInvalidUnicode, inbox(text: [0x63, 0xE9])),
        (.allowControlCharactersInStrings, inbox(text: [0x61, 0x09])),
        (.allowNonFiniteNumbers, Data(#"{"messages":[{"id":NaN,"text":"x"}]}"#.utf8)),
    ]

    @Test(arguments: dirtyInboxes.indices)
    func optionOffRejectsTheDocumentAsBefore(_ index: Int) throws {
        let (option, data) = Self.dirtyInboxes[index]
        for policy in [DecodingPolicy.strict, DecodingPolicy.lenient.subtracting(option)] {
            do {
                _ = try Self.decode(Inbox.self, data, policy: policy)
                Issue.record("\(option) off must reject the document")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.codingPath.isEmpty)
                #expect(context.underlyingError is JSONParseError)
            }
            // As Foundation does.
            #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(Inbox.self, from: data) }
        }
    }

    /// An unpaired surrogate is valid JSON grammar, so without the option the string fails
    /// at decode time: strict fails the whole decode, lenient drops the message, as before.
    @Test func unpairedSurrogateWithoutTheOptionFailsTheString() throws {
        let data = Self.inbox(text: Array(#"\udc00"#.utf8))
        #expect(throws: DecodingError.self) { _ = try Self.decode(Inbox.self, data, policy: .strict) }
        let result = try Self.decode(Inbox.self, data, policy: DecodingPolicy.lenient.subtracting(.replaceInvalidUnicode))
        #expect(result.value.messages.map(\.id) == [1, 3])
        #expect(result.repairs.map(\.action) == [.dropped])
    }

    @Test func strictPolicyContainsNoneOfTheNewOptions() {
        for option in [DecodingPolicy.replaceInvalidUnicode, .allowControlCharactersInStrings, .allowNonFiniteNumbers] {
            #expect(!DecodingPolicy.strict.contains(option))
            #expect(DecodingPolicy.lenient.contains(option))
        }
    }

    // MARK: Non-finite numbers elsewhere

    struct Floats: Decodable {
        var float: Float
        var optional: Float?
        var doubles: [Double]
    }

    @Test func nonFiniteLiteralsDecodeIntoFloatOptionalAndArray() throws {
        let result = try Self.decode(Floats.self, #"{"float":-Infinity,"optional":NaN,"doubles":[1,NaN,Infinity]}"#)
        #expect(result.value.float == -.infinity)
        #expect(result.value.optional?.isNaN == true)
        #expect(result.value.doubles.count == 3 && result.value.doubles[1].isNaN && result.value.doubles[2] == .infinity)
        #expect(result.repairs.map(\.path) == ["$.float", "$.optional", "$.doubles[1]", "$.doubles[2]"])
        #expect(result.repairs.map(\.expected) == ["Float", "Float", "Double", "Double"])
        #expect(result.repairs.allSatisfy { $0.action == .acceptedNonFiniteNumber })
    }

    #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
        @Test func nonFiniteLiteralsDecodeIntoFloat16() throws {
            let result = try Self.decode([Float16].self, "[NaN,-Infinity]")
            #expect(result.value.count == 2 && result.value[0].isNaN && result.value[1] == -.infinity)
            #expect(result.repairs.map(\.action) == [.acceptedNonFiniteNumber, .acceptedNonFiniteNumber])
        }
    #endif

    struct Others: Decodable {
        var count: Int?
        var ids: [Int]
        var label: String?
        var flag: Bool?
        var price: Decimal?
    }

    /// Where no floating-point type is expected they reach the usual lenient boundary.
    @Test func nonFiniteLiteralsElsewhereReachTheLenientBoundary() throws {
        let result = try Self.decode(Others.self, #"{"count":NaN,"ids":[1,Infinity,2],"label":NaN,"flag":-Infinity,"price":NaN}"#)
        #expect(result.value.count == nil && result.value.ids == [1, 2] && result.value.label == nil)
        #expect(result.value.flag == nil && result.value.price == nil)
        #expect(result.repairs.map(\.action) == [.setToNil, .dropped, .setToNil, .setToNil, .setToNil])
        #expect(result.repairs.map(\.path) == ["$.count", "$.ids[1]", "$.label", "$.flag", "$.price"])
        #expect(result.repairs.map(\.found.excerpt) == ["NaN", "Infinity", "NaN", "-Infinity", "NaN"])
        #expect(result.repairs[0].reason == "$.count: Expected to decode Int but found the non-finite number NaN instead.")
    }

    @Test func nonFiniteLiteralWhereAStringIsRequiredFailsTheDecode() {
        #expect(throws: DecodingError.self) { _ = try Self.decode(Box<String>.self, #"{"value":NaN}"#) }
        #expect(throws: DecodingError.self) { _ = try Self.decode(Box<Int>.self, #"{"value":Infinity}"#) }
    }

    /// `JSONValue.double` can hold them; the repair says where they came from. (A `NaN` is
    /// not equal to itself, and Foundation's encoder refuses it by default.)
    @Test func nonFiniteLiteralsInJSONValue() throws {
        let result = try Self.decode(JSONValue.self, #"{"a":[NaN,-Infinity,1]}"#)
        guard case .double(let nan) = result.value["a"]?[0] else {
            Issue.record("expected a double")
            return
        }
        #expect(nan.isNaN)
        #expect(result.value["a"]?[1] == .double(-.infinity))
        #expect(result.value["a"]?[2] == .integer(1))
        #expect(result.repairs.map(\.path) == ["$.a[0]", "$.a[1]"])
        #expect(result.repairs.map(\.expected) == ["Double", "Double"])
    }

    @Test(arguments: ["nan", "NAN", "inf", "-inf", "+Infinity", "Infinit", "-Infinityx", "NaNa", "-NaN", "Infinity1"])
    func misspelledNonFiniteLiteralsStayInvalid(_ text: String) {
        #expect(throws: DecodingError.self) { _ = try Self.decode([Double].self, "[\(text)]") }
    }

    // MARK: UTF-8 edge cases

    static let invalidUTF8: [(bytes: [UInt8], text: String, found: String, count: Int)] = [
        ([0x61, 0xE2, 0x82], "a\u{FFFD}", #"\xE2\x82"#, 1),  // truncated at the string's end
        ([0xC0, 0xAF], "\u{FFFD}\u{FFFD}", #"\xC0"#, 2),  // overlong '/'
        ([0xE0, 0x80, 0xAF], "\u{FFFD}\u{FFFD}\u{FFFD}", #"\xE0"#, 3),  // overlong, three bytes
        ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}", #"\xED"#, 3),  // a surrogate encoded in UTF-8
        ([0xF4, 0x90, 0x80, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}", #"\xF4"#, 4),  // above U+10FFFF
        ([0xF0, 0x9F, 0x98], "\u{FFFD}", #"\xF0\x9F\x98"#, 1),  // an emoji cut short
        ([0x80, 0x41], "\u{FFFD}A", #"\x80"#, 1),  // a lone continuation byte
    ]

    @Test(arguments: invalidUTF8.indices)
    func invalidUTF8IsReplacedByMaximalSubparts(_ index: Int) throws {
        let (bytes, text, found, count) = Self.invalidUTF8[index]
        // What the standard library does is the rule.
        #expect(String(decoding: bytes, as: UTF8.self) == text)
        let result = try Self.decode(Inbox.self, Self.inbox(text: bytes))
        #expect(result.value.messages[1].text == text)
        #expect(result.repairs.count == 1)
        #expect(result.repairs.first?.found.excerpt == found)
        #expect(result.repairs.first?.reason?.hasPrefix("\(count) ill-formed") == true)
        #expect(throws: DecodingError.self) { _ = try Self.decode(Inbox.self, Self.inbox(text: bytes), policy: .strict) }
    }

    /// Every two- and three-byte sequence the scanner checks as one word, inside a string and at
    /// its end: strict accepts exactly what the standard library calls well-formed, and lenient
    /// reads what `String(decoding:as:)` makes of it.
    @Test func twoAndThreeByteSequencesFollowTheStandardLibrary() throws {
        for lead in UInt8(0xC0)...0xEF {
            for second in [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] as [UInt8] {
                for third in [0x41, 0x80, 0xBF, 0xC0] as [UInt8] {
                    for (before, after) in [("ab", "cdef"), ("", "")] {
                        let body = Array(before.utf8) + [lead, second, third] + Array(after.utf8)
                        let data = Data(#"[""#.utf8) + Data(body) + Data(#""]"#.utf8)
                        let text = String(decoding: body, as: UTF8.self)
                        let wellFormed = Array(text.utf8) == body
                        let strict = try? Self.decode([String].self, data, policy: .strict)
                        #expect((strict != nil) == wellFormed, "\(body)")
                        #expect(try Self.decode([String].self, data).value == [text], "\(body)")
                    }
                }
            }
        }
    }

    /// Strict keeps today's parse errors for each kind of bad sequence, offset included.
    @Test func strictKeepsItsUTF8Errors() {
        let cases: [([UInt8], String)] = [
            ([0xFF, 0x20], "Invalid UTF-8 byte 0xFF in a string"),
            ([0x63, 0xE9], "Truncated UTF-8 sequence in a string"),  // é in Latin-1 reads as a cut lead byte
            ([0x61, 0xE2, 0x82], "Truncated UTF-8 sequence in a string"),
            ([0x61, 0xE2, 0x41], "Truncated UTF-8 sequence in a string"),
            ([0xE2, 0x41, 0x41, 0x41], "Invalid UTF-8 sequence in a string"),
            ([0xED, 0xA0, 0x80], "Invalid UTF-8 sequence in a string"),
        ]
        for (bytes, reason) in cases {
            let data = Data(#"[""#.utf8) + Data(bytes) + Data(#""]"#.utf8)
            do {
                _ = try Self.decode([String].self, data, policy: .strict)
                Issue.record("\(bytes) must be rejected")
            } catch DecodingError.dataCorrupted(let context) {
                let error = context.underlyingError as? JSONParseError
                #expect(error?.reason == reason, "\(bytes)")
                #expect(error?.offset == 2 + (bytes.firstIndex { $0 >= 0x80 } ?? 0), "\(bytes)")
            } catch {
                Issue.record("\(bytes): \(error)")
            }
        }
    }

    @Test func documentTruncatedInsideAStringStaysAnError() {
        let data = Data(#"{"messages":[{"id":1,"text":"caf"#.utf8) + Data([0xC3])
        #expect(throws: DecodingError.self) { _ = try Self.decode(Inbox.self, data) }
    }

    @Test func invalidUTF8OutsideAStringStaysAnError() {
        for bytes: [UInt8] in [[0x5B, 0xE9, 0x5D], [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x31, 0xFF, 0x7D]] {
            #expect(throws: DecodingError.self) { _ = try Self.decode(JSONValue.self, Data(bytes)) }
        }
    }

    @Test func surrogateEscapesReplacedOnePerUnpairedUnit() throws {
        let cases: [(String, String, String, Int)] = [
            (#"\ud83d\ude00 ok"#, "😀 ok", "", 0),
            (#"\ud83d\u0041"#, "\u{FFFD}A", #"\ud83d"#, 1),
            (#"\ude00\ud83d"#, "\u{FFFD}\u{FFFD}", #"\ude00"#, 2),
            (#"\ud83d\ud83d\ude00"#, "\u{FFFD}😀", #"\ud83d"#, 1),
            (#"x\ud83d"#, "x\u{FFFD}", #"\ud83d"#, 1),
        ]
        for (escaped, text, found, count) in cases {
            let result = try Self.decode(Inbox.self, Self.inbox(text: Array(escaped.utf8)))
            #expect(result.value.messages[1].text == text, "\(escaped)")
            #expect(result.repairs.map(\.found.excerpt) == (count == 0 ? [] : [found]), "\(escaped)")
            #expect(result.repairs.map(\.action) == (count == 0 ? [] : [.replacedInvalidUnicode]), "\(escaped)")
        }
    }

    @Test func stringWithBothKindsOfDirtGetsOneRepairEach() throws {
        let result = try Self.decode(Inbox.self, Self.inbox(text: [0x09] + Array(#"\ud83d"#.utf8) + [0xFF, 0x1F]))
        #expect(result.value.messages[1].text == "\t\u{FFFD}\u{FFFD}\u{1F}")
        #expect(
            result.repairs == [
                Self.repair(#"\u0009"#, .acceptedControlCharacter, reason: "2 raw control characters kept; found shows the first"),
                Self.repair(
                    #"\ud83d"#, .replacedInvalidUnicode, reason: "2 ill-formed Unicode parts replaced with U+FFFD; found shows the first"),
            ])
    }

    struct Note: Decodable, Equatable {
        var text: String
        var id: Int
    }

    /// A note dropped for another reason, after its text was read, takes the text's repair with it.
    @Test func repairsInsideADroppedElementAreRolledBack() throws {
        let data = Data(#"[{"id":"x","text":"a"#.utf8) + Data([0xE9]) + Data(#""},{"id":2,"text":"b"}]"#.utf8)
        let result = try Self.decode([Note].self, data)
        #expect(result.value == [Note(text: "b", id: 2)])
        #expect(result.repairs.map(\.action) == [.dropped])
    }

    // MARK: Other ways in

    @Test func parsedJSONSharesTheParser() throws {
        let data = Data(#"{"result":{"text":"a"#.utf8) + Data([0x09, 0xE9]) + Data(#"","score":NaN}}"#.utf8)
        let parsed = try ParsedJSON(data)
        #expect(parsed.kind(at: ["result", "score"]) == .number)
        let text = try parsed.decode(String.self, at: ["result", "text"])
        #expect(text.value == "a\t\u{FFFD}")
        #expect(text.repairs.map(\.path) == ["$.result.text", "$.result.text"])
        #expect(text.repairs.map(\.action) == [.acceptedControlCharacter, .replacedInvalidUnicode])
        let score = try parsed.decode(Double.self, at: ["result", "score"])
        #expect(score.value.isNaN)
        #expect(score.repairs.map(\.path) == ["$.result.score"])
        #expect(throws: DecodingError.self) { _ = try ParsedJSON(data, decoder: .strict) }
    }

    @Test func jsonValueReportsStringsAtTheirPaths() throws {
        let data = Data(#"{"list":["ok","a"#.utf8) + Data([0x0A]) + Data(#""]}"#.utf8)
        let result = try Self.decode(JSONValue.self, data)
        #expect(result.value == ["list": ["ok", "a\n"]])
        #expect(
            result.repairs == [
                Self.repair(
                    #"\u000A"#, .acceptedControlCharacter, reason: "1 raw control character kept",
                    path: "$.list[1]")
            ])
    }

    /// UTF-16 documents are transcoded before parsing, so the same rules apply to them.
    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian])
    func utf16DocumentsFollowTheSameRules(_ encoding: String.Encoding) throws {
        let text = "[{\"id\":1,\"text\":\"a\tb \\ud83d\"}]"
        let data = try #require(text.data(using: encoding))
        let result = try Self.decode([Message].self, data)
        #expect(result.value == [Message(id: 1, text: "a\tb \u{FFFD}")])
        #expect(result.repairs.map(\.action) == [.acceptedControlCharacter, .replacedInvalidUnicode])
        let numbers = try Self.decode([Double].self, try #require("[NaN]".data(using: encoding)))
        #expect(numbers.value.first?.isNaN == true)
        #expect(throws: DecodingError.self) { _ = try Self.decode([Message].self, data, policy: .strict) }
    }
}
