import BackstopJSON
import Foundation
import Testing

/// The decoding cases of swift-foundation's own JSON tests that need only public API,
/// restated here and run against both decoders: whatever Foundation promises its users
/// about decoding, strict decoding must promise too.
@Suite struct FoundationJSONDecoderCasesTests {
    let both = Decoders()

    /// Decodes with both and also checks the value, so a shared mistake cannot pass.
    private func expect<T: Decodable & Equatable>(
        _ type: T.Type, _ json: String, is expected: T, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let outcome = both.expectSame(type, json, sourceLocation: sourceLocation)
        #expect(outcome == .value(expected), sourceLocation: sourceLocation)
    }

    private func expectBothFail<T: Decodable & Equatable>(_ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation)
    {
        if case .value = both.expectSame(type, json, sourceLocation: sourceLocation) {
            Issue.record("\(json) as \(T.self) should fail", sourceLocation: sourceLocation)
        }
    }

    private func roundTrip<T: Codable & Equatable>(
        _ value: T, configure: (JSONEncoder, JSONDecoder, inout ResilientJSONDecoder) -> Void = { _, _, _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let encoder = JSONEncoder()
        var decoders = Decoders()
        configure(encoder, decoders.foundation, &decoders.ours)
        let data = try encoder.encode(value)
        #expect(try decoders.foundation.decode(T.self, from: data) == value, sourceLocation: sourceLocation)
        #expect(try decoders.ours.decode(T.self, from: data) == value, sourceLocation: sourceLocation)
    }

    // MARK: Top-level values of every shape

    struct Empty: Codable, Equatable {}
    final class EmptyClass: Codable, Equatable { static func == (_: EmptyClass, _: EmptyClass) -> Bool { true } }

    /// Encodes as a single Bool.
    enum Switch: Codable, Equatable {
        case off, on
        init(from decoder: any Decoder) throws { self = try decoder.singleValueContainer().decode(Bool.self) ? .on : .off }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(self == .on)
        }
    }

    /// Encodes as a Bool, or as null for the third state.
    enum EnhancedBool: Codable, Equatable {
        case yes, no, fileNotFound
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            self = container.decodeNil() ? .fileNotFound : try container.decode(Bool.self) ? .yes : .no
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .yes: try c.encode(true)
            case .no: try c.encode(false)
            case .fileNotFound: try c.encodeNil()
            }
        }
    }

    /// Encodes as an array and a dictionary through single-value containers.
    struct Numbers: Codable, Equatable {
        var values = [4, 8, 15, 16, 23, 42]
        var mapping = ["Apple": 42, "localhost": 127]
        init() {}
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            values = try container.decode([Int].self)
            mapping = try container.decode([String: Int].self)
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(values)
            try c.encode(mapping)
        }
    }

    struct Address: Codable, Equatable {
        var street = "1 Infinite Loop", city = "Cupertino", state = "CA", zipCode = 95014, country = "United States"
    }
    struct Company: Codable, Equatable {
        var address = Address()
        var employees = [Address(), Address(street: "x", city: "y", state: "z", zipCode: 1, country: "w")]
    }

    @Test func topLevelValuesOfEveryShape() throws {
        try roundTrip(Empty())
        try roundTrip(EmptyClass())
        try roundTrip(Switch.on)
        try roundTrip(Switch.off)
        try roundTrip(EnhancedBool.yes)
        try roundTrip(EnhancedBool.fileNotFound)
        try roundTrip(Numbers())
        try roundTrip(Address())
        try roundTrip(Company())
        try roundTrip([1, 2, 3])
        try roundTrip([Int]())
        try roundTrip(Optional(Address()))
    }

    // MARK: Decoder state after errors

    /// A failed attempt must leave the decoder where it was, so a second attempt on the
    /// same container sees the same value.
    @Test func failedAttemptLeavesDecoderUsable() throws {
        expect(Either<[String], [Int]>.self, "[1,2,3]", is: .u([1, 2, 3]))
        struct Failure: Error {}
        var dates = Decoders()
        dates.foundation.dateDecodingStrategy = .custom { _ in throw Failure() }
        dates.ours.dateDecodingStrategy = .custom { _ in throw Failure() }
        #expect(try dates.ours.decode(Either<Date, Int>.self, from: Data("1".utf8)) == .u(1))
        dates.expectSame(Either<Date, Int>.self, "1")
        var datas = Decoders()
        datas.foundation.dataDecodingStrategy = .custom { _ in throw Failure() }
        datas.ours.dataDecodingStrategy = .custom { _ in throw Failure() }
        #expect(try datas.ours.decode(Either<Data, Int>.self, from: Data("1".utf8)) == .u(1))
    }

    /// Errors thrown by a type's own `init(from:)` reach the caller unchanged.
    @Test func errorsFromInitPassThrough() {
        struct NotFoo: Error, Equatable {}
        struct Keyed: Decodable {
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                guard try container.decode(String.self, forKey: AnyKey("checkedString")) == "foo" else { throw NotFoo() }
            }
        }
        struct Single: Decodable {
            init(from decoder: any Decoder) throws {
                guard try decoder.singleValueContainer().decode(String.self) == "foo" else { throw NotFoo() }
            }
        }
        let keyed = Data(#"{ "checkedString" : "baz" }"#.utf8)
        #expect(throws: NotFoo()) { _ = try JSONDecoder().decode(Keyed.self, from: keyed) }
        #expect(throws: NotFoo()) { _ = try both.ours.decode(Keyed.self, from: keyed) }
        #expect(throws: NotFoo()) { _ = try ResilientJSONDecoder.lenient.decode(Keyed.self, from: keyed) }
        #expect(throws: NotFoo()) { _ = try both.ours.decode(Single.self, from: Data(#""baz""#.utf8)) }
    }

    /// `decodeNil` on a non-null value must not move the container forward.
    @Test func failedNilChecksDoNotAdvance() {
        struct RepeatNilCheck: Decodable, Equatable {
            var values: [Int] = []
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                while !container.isAtEnd {
                    guard try !container.decodeNil(), try !container.decodeNil() else {
                        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "nil"))
                    }
                    values.append(try container.decode(Int.self))
                }
            }
        }
        let outcome = both.expectSame(RepeatNilCheck.self, "[1, 2, 3]")
        if case .value(let value) = outcome { #expect(value.values == [1, 2, 3]) }
    }

    /// Containers, and the top-level decoder, may be kept and used after `init(from:)` returns.
    @Test func delayedDecoding() throws {
        struct KeepsContainer: Decodable {
            var container: (any UnkeyedDecodingContainer)?
            init(from decoder: any Decoder) throws { container = try decoder.unkeyedContainer() }
            func value() throws -> Int {
                guard var copy = container else { return -1 }
                return try copy.decode(Int.self)
            }
        }
        struct KeepsDecoder: Decodable {
            var decoder: (any Decoder)?
            init(from decoder: any Decoder) throws { self.decoder = decoder }
            func value() throws -> Int {
                guard let decoder else { return -1 }
                var container = try decoder.unkeyedContainer()
                return try container.decode(Int.self)
            }
        }
        let data = Data("[42]".utf8)
        #expect(try JSONDecoder().decode(KeepsContainer.self, from: data).value() == 42)
        #expect(try both.ours.decode(KeepsContainer.self, from: data).value() == 42)
        #expect(try JSONDecoder().decode(KeepsDecoder.self, from: data).value() == 42)
        #expect(try both.ours.decode(KeepsDecoder.self, from: data).value() == 42)
    }

    /// A value read from a nested unkeyed container of a keyed one.
    @Test func nestedUnkeyedContainerInsideKeyed() {
        struct Level1: Decodable, Equatable {
            var level2: Level2
            struct Level2: Decodable, Equatable { var name: String }
            init(level2: Level2) { self.level2 = level2 }
            init(from decoder: any Decoder) throws {
                var nested = try decoder.container(keyedBy: AnyKey.self).nestedUnkeyedContainer(forKey: AnyKey("level2"))
                level2 = try nested.decode(Level2.self)
            }
        }
        expect(Level1.self, #"{"level2":[{"name":"level2"}]}"#, is: Level1(level2: .init(name: "level2")))
        expectBothFail(Level1.self, #"{"level2":[]}"#)
    }

    // MARK: Strings

    @Test func stringEscapes() {
        expect(String.self, #""\/test\/path""#, is: "/test/path")
        expect(String.self, #""\\/test\\/path""#, is: #"\/test\/path"#)
        expect([String].self, #"["閆崬밺뀫颒"]"#, is: ["閆崬밺뀫颒"])
        expect(String.self, #""\u00e9\u2265""#, is: "é≥")
        expect(String.self, #""42\u00e942\u226542""#, is: "42é42≥42")
        expect(String.self, #""\u00E9""#, is: "é")
        expect(String.self, #""\uD834\uDD1E""#, is: "𝄞")
        for scalar in 0...0x1F {
            let hex = String(scalar, radix: 16)
            expect(
                String.self, "\"\\u\(String(repeating: "0", count: 4 - hex.count) + hex)\"",
                is: String(Character(Unicode.Scalar(UInt8(scalar)))))
        }
        expect(String.self, #""\b\f\n\r\t""#, is: "\u{8}\u{C}\n\r\t")
        // Raw non-ASCII text beside escapes, short and long (past a stack buffer's size).
        expect(String.self, #""「東京」\n\"引用\" é\u00e9 \uD834\uDD1E 𝄞""#, is: "「東京」\n\"引用\" éé 𝄞 𝄞")
        let long = String(repeating: "日本語のテキスト、", count: 300)
        expect(String.self, "\"\(long)\\n\(long)\"", is: long + "\n" + long)
        expect([String: String].self, #"{"キー\n": "値\t", "ascii": "plain"}"#, is: ["キー\n": "値\t", "ascii": "plain"])
    }

    @Test func badStringEscapesFail() {
        for text in [#""\uD834""#, #""\uD834hello""#, #""hello\uD834""#, #""\uD834\u1221""#, #""\uD8""#, #""\uD834x\uDD1E""#, #""\uDD1E""#]
        {
            expectBothFail(String.self, text)
        }
        expectBothFail([String].self, #"["\h\e\l\l\o"]"#)
    }

    @Test func nullBytesSurvive() throws {
        let string = "abc\u{0000}def"
        try roundTrip([string])
        try roundTrip([string: string])
        try roundTrip(Box(value: string))
    }

    /// Keys equal as Swift strings are one key, whichever Unicode spelling they use.
    @Test func equivalentUnicodeKeysAreOneKey() throws {
        let json = #"{ "caf\u00e9" : true, "cafe\u0301" : false }"#
        both.expectSame([String: Bool].self, json)
        #expect(try both.ours.decode([String: Bool].self, from: Data(json.utf8)).count == 1)
    }

    // MARK: Numbers

    @Test func numberFragments() {
        let cases: [(String, Double)] = [
            ("0 ", 0), ("1.0 ", 1), ("0.1 ", 0.1), ("1e3 ", 1000), ("-2.01e-3 ", -0.00201),
            ("0", 0), ("1.0", 1), ("1e3", 1000), ("-2.01e-3", -0.00201), ("0e-10", 0),
        ]
        for (text, value) in cases { expect(Double.self, text, is: value) }
    }

    @Test func invalidNumbersFail() {
        for text in ["0.", "1e ", "-2.01e- ", "+", "2.01e-1234", "+2.0q", "2s", "NaN", "nan", "Infinity", "inf", "-", "0x42", "1.e2"] {
            expectBothFail(Float.self, text)
        }
    }

    @Test func literalsWithGarbageFail() {
        expectBothFail(Bool.self, "tru_")
        expectBothFail(Bool.self, "fals_")
        expectBothFail(Optional<Bool>.self, "nul_")
        expectBothFail(Int.self, " ")
        expectBothFail(Int.self, "")
        expectBothFail(String.self, #""foo"#)
        struct Invalid: Decodable, Equatable { var invalid: String }
        expectBothFail(Invalid.self, #"{"invalid": json}"#)
    }

    /// A slice of a larger buffer decodes only the slice, wherever it starts.
    @Test func dataSlices() throws {
        let full = Data("3.141596".utf8)
        #expect(try JSONDecoder().decode(Double.self, from: full[0..<4]) == 3.14)
        #expect(try both.ours.decode(Double.self, from: full[0..<4]) == 3.14)
        #expect(try both.ours.decode(Double.self, from: full[2..<5]) == 141)
        #expect(try both.ours.decode(Double.self, from: full[2..<5]) == JSONDecoder().decode(Double.self, from: full[2..<5]))
    }

    @Test func numbersAtTheEdges() throws {
        expect([String: UInt64].self, #"{"a":6032314514195021674}"#, is: ["a": 6032314514195021674])
        try roundTrip([["magic_number": 7.45673334164903e-115]])
        struct Extremes: Codable, Equatable {
            var floats: [Float]
            var doubles: [Double]
        }
        try roundTrip(
            Extremes(
                floats: [.greatestFiniteMagnitude, .leastNormalMagnitude, .leastNonzeroMagnitude, -0.0],
                doubles: [.greatestFiniteMagnitude, .leastNormalMagnitude, .leastNonzeroMagnitude, -0.0]))
        let doubles: [String: Double] = [
            "-55.66": -55.66, "-9.81": -9.81, "-0.284": -0.284, "-3.4028234663852886e+38": Double(-Float.greatestFiniteMagnitude),
            "-1.1754943508222875e-38": Double(-Float.leastNormalMagnitude), "-1.7976931348623157e+308": -.greatestFiniteMagnitude,
            "-2.2250738585072014e-308": -.leastNormalMagnitude, "0.000001": 0.000001,
        ]
        try roundTrip(doubles)
        for (text, value) in doubles { expect(Double.self, text, is: value) }
    }

    @Test func decimals() throws {
        let texts = [
            "1.234567891011121314", "-1.234567891011121314", "0.1234567891011121314", "-0.1234567891011121314",
            "123.4567891011121314e-100", "-123.4567891011121314e-100", "1234567891011121314e-100", "-1234567891011121314e-100",
            "0.1234567891011121314e-100", "3.14159265358979323846264338327950288419", "2.71828182845904523536028747135266249775",
            "440474310512876335.18692524723746578303827301433673643795",
            "23456789012000000000000000000000000000000000000000000000000000000000000000000 ",
        ]
        for text in texts {
            both.expectSame(Decimal.self, text)
            #expect(try both.ours.decode(Decimal.self, from: Data(text.utf8)) == Decimal(string: text.trimmingCharacters(in: .whitespaces)))
        }
        struct Big: Codable, Equatable {
            var uint64Max = Decimal(UInt64.max)
            var uint64MaxPlus1 = Decimal(UInt64.max) + 1
            var int64Min = Decimal(Int64.min)
            var int64MinMinus1 = Decimal(Int64.min) - 1
            var huge = Decimal(sign: .plus, exponent: 127, significand: 1)
        }
        try roundTrip(Big())
    }

    /// No decoder may quietly turn a number into a Bool or a Bool into a number.
    @Test func noCoercionBetweenBoolsAndNumbers() {
        for type in [
            Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self,
            Float.self, Double.self,
        ] as [any (Codable & Equatable).Type] {
            func check<T: Codable & Equatable>(_: T.Type) { expectBothFail([T].self, "[false,true]") }
            check(type)
        }
        for text in ["[0,1]", "[0.0,1.0]"] { expectBothFail([Bool].self, text) }
    }

    // MARK: Structure and whitespace

    @Test func whitespaceAroundKeys() {
        for json in ["{\"v\"\n : true}", "{\"v\"\r\n : true}", "{\"v\"\r : true}", "\t{ \"v\" :\ttrue } \n"] {
            expect([String: Bool].self, json, is: ["v": true])
        }
    }

    /// Half of Foundation's maximum depth passes; one more level than the maximum fails.
    @Test func depthLimit() {
        struct SuperNestedArray: Decodable, Equatable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                while container.count ?? 0 > 0 { container = try container.nestedUnkeyedContainer() }
            }
        }
        both.expectSame(SuperNestedArray.self, String(repeating: "[", count: 256) + String(repeating: "]", count: 256))
        expectBothFail(SuperNestedArray.self, String(repeating: "[", count: 513) + String(repeating: "]", count: 513))
    }

    /// Foundation accepts trailing commas; strict decoding follows RFC 8259 and does not,
    /// while lenient decoding accepts and reports them. This is a deliberate difference.
    @Test func trailingCommasAreADeliberateDifference() throws {
        let json = Data(#"{"key" : [ true, ],}"#.utf8)
        #expect(try JSONDecoder().decode([String: [Bool]].self, from: json) == ["key": [true]])
        #expect(throws: DecodingError.self) { _ = try both.ours.decode([String: [Bool]].self, from: json) }
        #expect(try ResilientJSONDecoder.lenient.decode([String: [Bool]].self, from: json) == ["key": [true]])
    }

    @Test func byteOrderMarks() throws {
        let json = #""👍🏻""#
        let marks: [([UInt8], String.Encoding)] = [
            ([0xEF, 0xBB, 0xBF], .utf8), ([0xFE, 0xFF], .utf16BigEndian), ([0xFF, 0xFE], .utf16LittleEndian),
            ([0, 0, 0xFE, 0xFF], .utf32BigEndian), ([0xFF, 0xFE, 0, 0], .utf32LittleEndian),
        ]
        for (mark, encoding) in marks {
            let data = Data(mark) + (try #require(json.data(using: encoding)))
            #expect(try both.ours.decode(String.self, from: data) == "👍🏻")
        }
        // A mark that contradicts the text's encoding is an error, not a guess.
        #expect(throws: DecodingError.self) {
            _ = try both.ours.decode(String.self, from: Data([0xFE, 0xFF]) + json.data(using: .utf32LittleEndian)!)
        }
        #expect(throws: DecodingError.self) {
            _ = try both.ours.decode(String.self, from: Data([0xEF, 0xBB, 0xBF]) + json.data(using: .utf16BigEndian)!)
        }
    }

    // MARK: Strategies, round-tripped

    @Test func strategiesRoundTrip() throws {
        try roundTrip(Date(timeIntervalSince1970: 1000)) { e, f, o in
            e.dateEncodingStrategy = .secondsSince1970
            f.dateDecodingStrategy = .secondsSince1970
            o.dateDecodingStrategy = .secondsSince1970
        }
        try roundTrip([Date(timeIntervalSince1970: 1000)]) { e, f, o in
            e.dateEncodingStrategy = .millisecondsSince1970
            f.dateDecodingStrategy = .millisecondsSince1970
            o.dateDecodingStrategy = .millisecondsSince1970
        }
        try roundTrip(Optional(Date(timeIntervalSince1970: 1000))) { e, f, o in
            e.dateEncodingStrategy = .iso8601
            f.dateDecodingStrategy = .iso8601
            o.dateDecodingStrategy = .iso8601
        }
        try roundTrip(Data([0xDE, 0xAD, 0xBE, 0xEF])) { e, f, o in
            e.dataEncodingStrategy = .deferredToData
            f.dataDecodingStrategy = .deferredToData
            o.dataDecodingStrategy = .deferredToData
        }
        try roundTrip([Data([0xDE, 0xAD, 0xBE, 0xEF]), Data()])
        try roundTrip(URL(string: "http://swift.org")!)
        try roundTrip([Float.infinity, -Float.infinity, 1.5]) { e, f, o in
            e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN")
            f.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN")
            o.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN")
        }
        var nan = ResilientJSONDecoder.strict
        nan.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN")
        #expect(try nan.decode(Double.self, from: Data(#""NaN""#.utf8)).isNaN)
        // Custom readers may read something else entirely, even an empty object.
        let stamp = Date(timeIntervalSince1970: 7)
        var custom = Decoders()
        custom.foundation.dateDecodingStrategy = .custom { _ in stamp }
        custom.ours.dateDecodingStrategy = .custom { _ in stamp }
        custom.expectSame(Date.self, "{}")
        custom.expectSame([Date].self, "[42,{}]")
    }

    @Test func keyStrategyCases() {
        var custom = Decoders()
        let dropFour: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            let last = path.last?.stringValue ?? ""
            return AnyKey(last.count > 4 ? String(last.dropFirst(4)) : last)
        }
        custom.foundation.keyDecodingStrategy = .custom(dropFour)
        custom.ours.keyDecodingStrategy = .custom(dropFour)
        struct Hello: Decodable, Equatable { var hello: String }
        custom.expectSame(Hello.self, #"{"----hello":"test"}"#)
        var snake = Decoders()
        snake.foundation.keyDecodingStrategy = .convertFromSnakeCase
        snake.ours.keyDecodingStrategy = .convertFromSnakeCase
        snake.expectSame([String: String].self, #"{"leave_me_alone":"test"}"#)
        snake.expectSame([String: Int].self, #"{"leave_me_alone":"test"}"#)
        struct Failure: Decodable, Equatable { var intValue: Int }
        struct FailureNested: Decodable, Equatable { var nestedValue: Failure }
        snake.expectSame(
            [String: [String: FailureNested]].self, #"{"top_level": {"sub_level": {"nested_value": {"int_value": "not_an_int"}}}}"#)
        struct CamelCase: Decodable, Equatable { var thisIsCamelCase: String }
        snake.expectSame(CamelCase.self, #"{"this_is_camel_case":"test"}"#)
        snake.expectSame(CamelCase.self, #"{"thisIsCamelCase":"test"}"#)
        snake.expectSame(CamelCase.self, #"{"this_is_camel_case_missing":"test"}"#)
    }
}
