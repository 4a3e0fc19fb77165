import BackstopJSON
import CustomDump
import Foundation
import PropertyBased
import TestCorpus
import Testing

/// Strict decoding must be a drop-in replacement for Foundation's `JSONDecoder` on valid
/// JSON: the same values, and for errors the same `DecodingError` case and coding path,
/// because apps switch decoders without revisiting their error handling.
@Suite struct FoundationDifferentialTests {
    let both = Decoders()

    // MARK: Integers

    /// Each text sits on an edge of some integer type, or is written in a way (fraction,
    /// exponent, huge digit count) that sends Foundation down its slow path.
    static let integerTexts = [
        "0", "-0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "-256",
        "32767", "32768", "-32768", "-32769", "65535", "65536",
        "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "-18446744073709551616",
        "1.0", "-1.0", "1e2", "1E2", "1e+2", "1E-0", "100e-2", "1.5", "-1.5", "2.5e1", "0.0", "-0.0", "0e+5", "-0e-5",
        "1e19", "1.8446744073709551615e19", "9.223372036854775807e18", "-9.223372036854775807e18",
        "9007199254740993", "9007199254740993.0", "9007199254740993.5", "-9007199254740993.0",
        "12345678901234567890.0", "1234567890123456789.25", "0.1e1", "1e-1", "5e-1",
        "1e-400", "-1e-400", "123.456e-789", "1e400", "123456789012345678901234567890", "1e308", "1.7976931348623157e308",
        "18446744073709551615000e-3", "1844674407370955161500e-2", "18446744073709551615.5", "-9223372036854775807.9",
        "9223372036854775807.00000000000000000001", "10000000000000000000.000", "100000000000000000000e-2", "1.8446744073709551616e19",
        "9223372036854775806.99999999999999999999", "1223372036854775807.00000000000000000001", "3402823669209384634.63374607431768211455",
        "3402823669209384634.63374607431768211457", "9007199254740993.00000000000000000000000000000000000000001",
    ]

    @Test func integersOfEveryWidth() {
        for text in Self.integerTexts {
            both.expectSameEverywhere(Int.self, text)
            both.expectSameEverywhere(Int8.self, text)
            both.expectSameEverywhere(Int16.self, text)
            both.expectSameEverywhere(Int32.self, text)
            both.expectSameEverywhere(Int64.self, text)
            both.expectSameEverywhere(UInt.self, text)
            both.expectSameEverywhere(UInt8.self, text)
            both.expectSameEverywhere(UInt16.self, text)
            both.expectSameEverywhere(UInt32.self, text)
            both.expectSameEverywhere(UInt64.self, text)
        }
    }

    @Test func int128() throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
        for text in Self.integerTexts + ["170141183460469231731687303715884105727", "-170141183460469231731687303715884105728"] {
            both.expectSameEverywhere(Int128.self, text)
            both.expectSameEverywhere(UInt128.self, text)
        }
    }

    /// Numbers that do not fit fail with an empty coding path in Foundation (it reports them
    /// from the parser's side); strict mode copies that so error handling sees the same thing.
    @Test func numberThatDoesNotFitHasFoundationsEmptyPath() throws {
        for (json, type) in [(#"{"a":[1,300]}"#, 0), (#"{"a":[1,1.5]}"#, 1)] {
            let data = Data(json.utf8)
            struct Model: Decodable, Equatable { var a: [UInt8] }
            let outcome = both.expectSame(Model.self, data, "case \(type)")
            #expect(outcome == .error(ErrorShape(DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "")))))
        }
    }

    /// Two slips of Foundation's that reject valid numbers which have an exact value. Copying
    /// them would make strict mode refuse good data, so it decodes them; this pins that down
    /// and keeps the difference visible.
    @Test func foundationSlipsAreNotCopied() throws {
        // Foundation's check for a true zero reads a short tail backwards, so the exponent's
        // digit looks like a non-zero digit and "0e5" seems to underflow.
        #expect(try both.ours.decode(Double.self, from: Data("0e5".utf8)) == 0)
        #expect(try both.ours.decode(Float.self, from: Data("0E7".utf8)) == 0)
        // Above 2^53 Foundation negates a positive Int64, which can never be Int64.min.
        #expect(try both.ours.decode(Int64.self, from: Data("-9.223372036854775808e18".utf8)) == .min)
        #expect(try both.ours.decode(Int.self, from: Data("-9223372036854775808.0".utf8)) == .min)
        withKnownIssue("Foundation rejects these valid numbers", isIntermittent: true) {
            both.expectSame(Double.self, "0e5")
            both.expectSame(Int64.self, "-9.223372036854775808e18")
        }
    }

    @Test func integersMistakenForOtherKinds() {
        for text in [#""1""#, "true", "false", "null", "[1]", #"{"a":1}"#, #""""#] {
            both.expectSameEverywhere(Int.self, text)
            both.expectSameEverywhere(UInt8.self, text)
        }
    }

    // MARK: Floating point

    static let doubleTexts = [
        "0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.2", "0.3", "1.5", "123.456", "1e22", "1e23", "1e-22", "1e-23",
        "9007199254740993", "9007199254740992.5", "18446744073709551615", "123456789012345678901234567890",
        "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "1e-324", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
        "1e309", "-1e309", "1e-400", "0e-400", "0.000e999", "7.45673334164903e-115", "3.141592653589793238462643383279",
        "0.1000000000000000055511151231257827021181583404541015625", "2.225073858507201136057409796709131975934819546351645648e-308",
        "1.00000005960464477539062500001", "1.000000059604644775390625", "1.0000000596046447753906249999",
        "3.4028235677973366e38", "3.4028235e38", "3.4028236e38", "1.17549435e-38", "1.4e-45", "7e-46", "1e-46",
        "-65.613616999999977", "44.6578", "1E400", "1e+308", "12345678901234567890e-10", "0.0000001e-300",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999999999999999999999999999999999999",
    ]

    private func expectSameBits<F: BinaryFloatingPoint & Codable>(
        _ type: F.Type, _ text: String, _ decoders: Decoders, sourceLocation: SourceLocation = #_sourceLocation
    ) where F.RawSignificand: FixedWidthInteger {
        // Bit patterns, because == calls 0 and -0 equal and a wrong last bit is still "close".
        func bits(_ body: () throws -> F) -> Outcome<String> {
            Outcome {
                let value = try body()
                return "\(value) \(value.sign) \(value.exponentBitPattern) \(value.significandBitPattern)"
            }
        }
        let data = Data("[\(text)]".utf8)
        let expected = bits { try decoders.foundation.decode([F].self, from: data)[0] }
        let actual = bits { try decoders.ours.decode([F].self, from: data)[0] }
        #expect(
            actual == expected, "\(text) as \(F.self): Foundation \(expected), ResilientJSONDecoder \(actual)",
            sourceLocation: sourceLocation)
    }

    @Test func doublesAndFloatsRoundLikeFoundation() {
        for text in Self.doubleTexts + Self.integerTexts {
            expectSameBits(Double.self, text, both)
            expectSameBits(Float.self, text, both)
            both.expectSameEverywhere(Double.self, text)
            both.expectSameEverywhere(Float.self, text)
        }
    }

    /// Reading a `Float` through a `Double` rounds twice, which goes wrong when the `Double`
    /// lands exactly halfway between two `Float`s; Foundation rounds once, with `strtof`.
    @Test func floatIsRoundedOnceNotTwice() throws {
        let justAboveHalfway = "1.00000005960464477539062500001"
        #expect(try both.ours.decode([Float].self, from: Data("[\(justAboveHalfway)]".utf8)) == [Float(1).nextUp])
        expectSameBits(Float.self, justAboveHalfway, both)
    }

    @Test func randomDoublesRoundTripBitForBit() async {
        let doubles = Gen<UInt64>.value().map { Double(bitPattern: $0) }.array(of: 64)
        await propertyCheck(count: 40, input: doubles) { values in
            for value in values where value.isFinite {
                for text in ["\(value)", String(format: "%.17g", value), String(format: "%.25e", value), String(format: "%.3e", value)] {
                    expectSameBits(Double.self, text, both)
                }
            }
        }
    }

    @Test func randomFloatsRoundTripBitForBit() async {
        let floats = Gen<UInt32>.value().map { Float(bitPattern: $0) }.array(of: 64)
        await propertyCheck(count: 30, input: floats) { values in
            for value in values where value.isFinite {
                for text in ["\(value)", String(format: "%.9g", Double(value)), String(format: "%.20e", Double(value))] {
                    expectSameBits(Float.self, text, both)
                    expectSameBits(Double.self, text, both)
                }
            }
        }
    }

    /// Random decimal texts of every length and exponent, including those that overflow,
    /// underflow and fall in the subnormal range, where fast paths give up.
    static let decimalTexts = Generator<String, Shrink.None<String>> { rng in
        var text = Bool.random(using: &rng) ? "-" : ""
        let digits = Int.random(in: 1...(Bool.random(using: &rng) ? 19 : 40), using: &rng)
        text += String(Int.random(in: 1...9, using: &rng))
        for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &rng)) }
        if Bool.random(using: &rng) {
            let point = Int.random(in: 1...text.count, using: &rng)
            if point < text.count, text.last != "-" {
                text.insert(".", at: text.index(text.startIndex, offsetBy: point))
                if text.hasSuffix(".") || text.contains("-.") { text.removeAll { $0 == "." } }
            }
        }
        let exponent = [
            Int.random(in: -30...30, using: &rng), Int.random(in: -360...330, using: &rng), Int.random(in: -60...50, using: &rng),
        ]
        return text + "e\(exponent[Int.random(in: 0...2, using: &rng)])"
    }.array(of: 50)

    @Test func randomDecimalTextsRoundLikeFoundation() async {
        await propertyCheck(count: 40, input: Self.decimalTexts) { texts in
            for text in texts {
                expectSameBits(Double.self, text, both)
                expectSameBits(Float.self, text, both)
            }
        }
    }

    /// The hardest inputs for correct rounding are exactly halfway between two adjacent
    /// binary values, and a hair either side of that: one wrong bit in a fast path shows.
    @Test func halfwayCasesRoundLikeFoundation() async {
        let doubles = Gen<UInt64>.value().map { Double(bitPattern: $0 & ~(1 << 63)) }.array(of: 16)
        await propertyCheck(count: 20, input: doubles) { values in
            for value in values where value.isFinite && value < .greatestFiniteMagnitude {
                for text in Halfway.texts(significand: Halfway.significand(value), exponent: Halfway.exponent(value)) {
                    expectSameBits(Double.self, text, both)
                }
            }
        }
        let floats = Gen<UInt32>.value().map { Float(bitPattern: $0 & ~(1 << 31)) }.array(of: 32)
        await propertyCheck(count: 20, input: floats) { values in
            for value in values where value.isFinite && value < .greatestFiniteMagnitude {
                for text in Halfway.texts(significand: Halfway.significand(value), exponent: Halfway.exponent(value)) {
                    expectSameBits(Float.self, text, both)
                }
            }
        }
    }

    @Test func nonConformingFloatsConvertFromStrings() {
        let decoders = Decoders { foundation, ours in
            foundation.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
            ours.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
        }
        for text in [#""+Inf""#, #""-Inf""#, #""NaN""#, #""nan""#, #""inf""#, #""1.5""#, "1.5", #""\u002BInf""#, "null"] {
            expectSameBits(Double.self, text, decoders)
            expectSameBits(Float.self, text, decoders)
            // NaN is never equal to itself, so compare the error shape and the description instead.
            decoders.expectSame(Box<String>.self, #"{"value":\#(text)}"#)
            expectSameBits(Double.self, text, both)
        }
    }

    // MARK: Decimal

    static let decimalNumberTexts = [
        "0", "-0", "1", "-1", "0.1", "1.5", "3.14159265358979323846264338327950288419", "2.71828182845904523536028747135266249775",
        "440474310512876335.18692524723746578303827301433673643795", "123.4567891011121314e-100", "-0.1234567891011121314e-100",
        "18446744073709551615", "18446744073709551616", "-9223372036854775809", "1e127", "1e128", "1e-127", "1e-128", "1e-130",
        "1e165", "1e166", "1e200", "1e-200", "1e308", "1e309", "1e-400", "0e10", "0.0000", "12345678901234567890123456789012345678901234",
        "23456789012000000000000000000000000000000000000000000000000000000000000000000", "1E+2", "1.0e-2",
    ]

    @Test func decimals() {
        for text in Self.decimalNumberTexts + Self.integerTexts {
            both.expectSameEverywhere(Decimal.self, text)
        }
        for text in [#""1.5""#, "true", "null", "[1]", "{}"] {
            both.expectSameEverywhere(Decimal.self, text)
        }
    }
}

/// Decimal texts for the points halfway between adjacent binary floating-point values.
enum Halfway {
    static func significand<F: BinaryFloatingPoint>(_ value: F) -> UInt64 where F.RawSignificand: FixedWidthInteger {
        let hidden: UInt64 = value.exponentBitPattern == 0 ? 0 : 1 << UInt64(F.significandBitCount)
        return UInt64(value.significandBitPattern) | hidden
    }

    static func exponent<F: BinaryFloatingPoint>(_ value: F) -> Int {
        let bias = (1 << (F.exponentBitCount - 1)) - 1
        return max(Int(value.exponentBitPattern), 1) - bias - F.significandBitCount
    }

    /// The exact halfway point (2m + 1) × 2^(e − 1) between m × 2^e and (m + 1) × 2^e,
    /// and the nearest texts just below and above it.
    static func texts(significand m: UInt64, exponent e: Int) -> [String] {
        // Base 10^9 limbs, least significant first.
        var limbs: [UInt64] = [(2 * m + 1) % 1_000_000_000, (2 * m + 1) / 1_000_000_000]
        func multiply(by factor: UInt64) {
            var carry: UInt64 = 0
            for i in limbs.indices {
                let product = limbs[i] * factor + carry
                limbs[i] = product % 1_000_000_000
                carry = product / 1_000_000_000
            }
            while carry > 0 {
                limbs.append(carry % 1_000_000_000)
                carry /= 1_000_000_000
            }
        }
        var power = e - 1
        var decimalExponent = 0
        if power >= 0 {
            while power >= 29 {
                multiply(by: 1 << 29)
                power -= 29
            }
            multiply(by: 1 << UInt64(power))
        } else {
            decimalExponent = power
            var k = -power
            while k >= 13 {
                multiply(by: 1_220_703_125)
                k -= 13
            }
            var rest: UInt64 = 1
            for _ in 0..<k { rest *= 5 }
            multiply(by: rest)
        }
        while limbs.count > 1 && limbs.last == 0 { limbs.removeLast() }
        var digits = String(limbs.last ?? 0)
        for limb in limbs.dropLast().reversed() {
            let text = String(limb)
            digits += String(repeating: "0", count: 9 - text.count) + text
        }
        // digits is odd (2m + 1 times a power of five), so its last digit is never 0.
        var below = Array(digits.utf8)
        var i = below.count - 1
        while below[i] == UInt8(ascii: "0") {
            below[i] = UInt8(ascii: "9")
            i -= 1
        }
        below[i] -= 1
        let belowText = String(decoding: below, as: UTF8.self)
        return [
            "\(digits)e\(decimalExponent)",
            "\(digits)1e\(decimalExponent - 1)",
            "\(belowText)9e\(decimalExponent - 1)",
        ]
    }
}

// MARK: - Foundation types and strategies

extension FoundationDifferentialTests {
    @Test func urls() {
        for text in [
            #""https://swift.org/path?q=1#frag""#, #""""#, #""not a url""#, #""http://[::1""#, #""/relative""#,
            #""https:\/\/escaped.example""#, #""%%""#, "1", "null", "[]",
        ] {
            both.expectSameEverywhere(URL.self, text)
        }
    }

    static let dateTexts = [
        "0", "-1.5", "1000", "1700000000.123", "1e12", #""2024-02-29T12:34:56Z""#, #""2024-02-29T12:34:56+02:00""#,
        #""2024-02-29""#, #""not a date""#, #""2024-02-29T12:34:56.789Z""#, "null", "true", "[1]", #"{"a":1}"#,
    ]

    private func dateDecoders(_ foundation: JSONDecoder.DateDecodingStrategy, _ ours: ResilientJSONDecoder.DateDecodingStrategy) -> Decoders
    {
        Decoders { f, o in
            f.dateDecodingStrategy = foundation
            o.dateDecodingStrategy = ours
        }
    }

    @Test func datesWithEveryStrategy() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd"
        let custom: @Sendable (any Decoder) throws -> Date = { decoder in
            // Reads through the decoder it is handed, so path and container behaviour show.
            let container = try decoder.singleValueContainer()
            return Date(timeIntervalSince1970: try container.decode(Double.self) * 2)
        }
        let strategies: [(String, Decoders)] = [
            ("deferredToDate", dateDecoders(.deferredToDate, .deferredToDate)),
            ("secondsSince1970", dateDecoders(.secondsSince1970, .secondsSince1970)),
            ("millisecondsSince1970", dateDecoders(.millisecondsSince1970, .millisecondsSince1970)),
            ("iso8601", dateDecoders(.iso8601, .iso8601)),
            ("custom", dateDecoders(.custom(custom), .custom(custom))),
        ]
        for (name, decoders) in strategies {
            for text in Self.dateTexts {
                decoders.expectSame(Date.self, text, name)
                decoders.expectSame([Date].self, "[\(text)]", name)
                decoders.expectSame(Box<Date>.self, #"{"value":\#(text)}"#, name)
                decoders.expectSame(OptionalBox<Date>.self, #"{"value":\#(text)}"#, name)
                decoders.expectSame(Box<[String: Date]>.self, #"{"value":{"k":\#(text)}}"#, name)
            }
        }
        // Foundation's `.formatted` needs the Objective-C framework; compare with the formatter itself.
        var ours = ResilientJSONDecoder(policy: .strict)
        ours.dateDecodingStrategy = .formatted(formatter)
        #expect(try ours.decode(Box<Date>.self, from: Data(#"{"value":"2024-02-29"}"#.utf8)).value == formatter.date(from: "2024-02-29"))
        #expect(
            ErrorShape(Result { try ours.decode(Box<Date>.self, from: Data(#"{"value":"29/02/2024"}"#.utf8)) }.error)
                == ErrorShape(DecodingError.dataCorrupted(.init(codingPath: [AnyKey("value")], debugDescription: ""))))
    }

    @Test func customDateStrategyThatThrowsLeavesDecoderUsable() {
        struct Failure: Error {}
        let decoders = dateDecoders(.custom { _ in throw Failure() }, .custom { _ in throw Failure() })
        decoders.expectSame(Either<Date, Int>.self, "1")
        decoders.expectSame(Either<[Date], [Int]>.self, "[1,2]")
    }

    @Test func dataWithEveryStrategy() {
        let texts = [
            #""3q2+7w==""#, #""""#, #""3q2+7w""#, #""!!!!""#, #""3q2+\/w==""#, #""aGVsbG8=""#, "[222,173,190,239]", "[256]", "[-1]", "[]",
            "12", "null", #"{"a":1}"#,
        ]
        let custom: @Sendable (any Decoder) throws -> Data = { decoder in
            Data(try decoder.singleValueContainer().decode(String.self).utf8.reversed())
        }
        let strategies: [(String, Decoders)] = [
            ("base64", Decoders()),
            (
                "deferredToData",
                Decoders { f, o in
                    f.dataDecodingStrategy = .deferredToData
                    o.dataDecodingStrategy = .deferredToData
                }
            ),
            (
                "custom",
                Decoders { f, o in
                    f.dataDecodingStrategy = .custom(custom)
                    o.dataDecodingStrategy = .custom(custom)
                }
            ),
        ]
        for (name, decoders) in strategies {
            for text in texts {
                decoders.expectSame(Data.self, text, name)
                decoders.expectSame([Data].self, "[\(text)]", name)
                decoders.expectSame(Box<Data>.self, #"{"value":\#(text)}"#, name)
                decoders.expectSame(OptionalBox<Data>.self, #"{"value":\#(text)}"#, name)
            }
        }
    }

    // MARK: Keys

    /// Asks for keys by name, in the order given, without `allKeys`.
    struct NamedKeys: Decodable, Equatable {
        static let wanted: [String] = {
            // Every length from 1 to 40, each key's bytes differing from the others' ...
            var keys: [String] = (1...40).map { length in
                let letters: [UInt8] = (0..<length).map { offset in UInt8(97 + (offset * 7 + length) % 26) }
                return String(decoding: letters, as: UTF8.self)
            }
            // ... and pairs alike in length and in their first and last eight bytes, which hash alike.
            keys += ["aaaaaaaa1bbbbbbbb", "aaaaaaaa2bbbbbbbb", "prefix__x__suffix_", "prefix__y__suffix_"]
            return keys
        }()
        var values: [Int?]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            values = try Self.wanted.reversed().map { try container.decodeIfPresent(Int.self, forKey: AnyKey($0)) }
            values += try Self.wanted.map { try container.decodeIfPresent(Int.self, forKey: AnyKey($0)) }
        }
    }

    /// Keys of every length are found by name, in the document's order and against it,
    /// and keys that hash alike are told apart.
    @Test func keysOfEveryLengthAreFoundByName() throws {
        let members = NamedKeys.wanted.enumerated().map { "\"\($0.element)\": \($0.offset)" }
        // Every other key missing, so a lookup also has to answer that it is not there.
        let json = "{" + members.enumerated().filter { $0.offset % 3 != 2 }.map(\.element).joined(separator: ", ") + "}"
        both.expectSame(NamedKeys.self, json)
        let decoded = try both.ours.decode(NamedKeys.self, from: Data(json.utf8))
        let expected = NamedKeys.wanted.indices.map { $0 % 3 != 2 ? $0 : nil }
        #expect(decoded.values == expected.reversed() + expected)
    }

    /// Decodes every key of an object, so both decoders' view of the keys can be compared.
    struct KeyProbe: Decodable, Equatable {
        var members: [String: String]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            var members: [String: String] = [:]
            for key in container.allKeys { members[key.stringValue] = try container.decode(String.self, forKey: key) }
            self.members = members
            #expect(Set(container.allKeys.map(\.stringValue)).count == container.allKeys.count, "allKeys has no repeats")
        }
    }

    /// Reads every member through a keyed container: `allKeys`, then `decode(_:forKey:)` each.
    struct IntKeyProbe: Decodable, Equatable {
        var members: [String: Int]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            var members: [String: Int] = [:]
            for key in container.allKeys { members[key.stringValue] = try container.decode(Int.self, forKey: key) }
            self.members = members
        }
    }

    static let snakeKeys = [
        "_leading", "trailing_", "a__b", "ALL_CAPS", "already_camelCase", "", "one_two_three", "_", "__", "___",
        "a", "snake_Ünicode", "__private_value__", "1_2", "url_ID", "oneTwo", "a_b_c_", "_a_b", "getHTTP_response",
        "with space_here", "ǅ_ǆ", "ß_straße", "camel_Case", "_one__two_",
    ]

    @Test func snakeCaseConversion() {
        let snake = Decoders { f, o in
            f.keyDecodingStrategy = .convertFromSnakeCase
            o.keyDecodingStrategy = .convertFromSnakeCase
        }
        let members = Self.snakeKeys.enumerated().map { #""\#($1)":"v\#($0)""# }.joined(separator: ",")
        snake.expectSame(KeyProbe.self, "{\(members)}")
        for key in Self.snakeKeys {
            snake.expectSame(KeyProbe.self, #"{"\#(key)":"x"}"#)
        }
        struct User: Decodable, Equatable {
            var userId: Int
            var displayName: String?
            var isAdmin: Bool
        }
        for json in [
            #"{"user_id":1,"display_name":"A","is_admin":true}"#, #"{"userId":1,"is_admin":false}"#,
            #"{"user_id":1,"user_id":2,"is_admin":true}"#, #"{"user_id":1,"userId":2,"is_admin":true}"#,
            #"{"USER_ID":1,"is_admin":true}"#, #"{"user__id":1,"is_admin":true}"#, #"{"_user_id":1,"is_admin":true}"#,
            #"{"user_id":"1","is_admin":true}"#, #"{"is_admin":true}"#,
        ] {
            snake.expectSame(User.self, json)
        }
    }

    /// Dictionaries keep their keys as written whatever the strategy, while models nested in
    /// them still have theirs converted; the coding path names the key as written.
    @Test func snakeCaseLeavesDictionaryKeysAlone() {
        let snake = Decoders { f, o in
            f.keyDecodingStrategy = .convertFromSnakeCase
            o.keyDecodingStrategy = .convertFromSnakeCase
        }
        struct Inner: Codable, Equatable { var intValue: Int }
        snake.expectSame([String: String].self, #"{"leave_me_alone":"test"}"#)
        snake.expectSame([String: Int].self, #"{"leave_me_alone":"test"}"#)
        snake.expectSame([String: [String: Inner]].self, #"{"top_level":{"sub_level":{"int_value":1}}}"#)
        snake.expectSame([String: [String: Inner]].self, #"{"top_level":{"sub_level":{"int_value":"x"}}}"#)
        snake.expectSame(Box<[String: Inner]>.self, #"{"value":{"a_b":{"int_value":2}}}"#)
        snake.expectSame([Int: Inner].self, #"{"1":{"int_value":2}}"#)
        snake.expectSame([String: Int].self, #"{"1":"x"}"#)
        snake.expectSame(Box<[String: Bool]>.self, #"{"value":{"2":null}}"#)
    }

    @Test func customKeyStrategy() {
        let paths = Recorder<[String]>()
        let paths2 = Recorder<[String]>()
        func strategy(_ recorder: Recorder<[String]>) -> @Sendable ([any CodingKey]) -> any CodingKey {
            { path in
                recorder.record(path.map(\.stringValue))
                // Drops a four-character prefix, the way some backends namespace their keys.
                let last = path.last?.stringValue ?? ""
                return AnyKey(last.count > 4 ? String(last.dropFirst(4)) : last)
            }
        }
        let decoders = Decoders { f, o in
            f.keyDecodingStrategy = .custom(strategy(paths))
            o.keyDecodingStrategy = .custom(strategy(paths2))
        }
        struct Inner: Decodable, Equatable { var hello: String }
        struct Outer: Decodable, Equatable {
            var inner: Inner
            var list: [Inner]
        }
        decoders.expectSame(Outer.self, #"{"----inner":{"----hello":"a"},"----list":[{"----hello":"b"},{"xxxxhello":"c"}]}"#)
        decoders.expectSame(Outer.self, #"{"----inner":{"hello":"a"},"----list":[]}"#)
        decoders.expectSame(Outer.self, #"{"----inner":{"----hello":1},"----list":[]}"#)
        // The converter sees the path to each key; the order of calls is the decoder's business.
        #expect(paths2.values.sorted { $0.lexicographicallyPrecedes($1) } == paths.values.sorted { $0.lexicographicallyPrecedes($1) })

        // When two keys convert to the same one, the first in the document wins.
        let collapse = Decoders { f, o in
            f.keyDecodingStrategy = .custom { _ in AnyKey("oneTwo") }
            o.keyDecodingStrategy = .custom { _ in AnyKey("oneTwo") }
        }
        collapse.expectSame(KeyProbe.self, #"{"unused key 1":"test1","unused key 2":"test2"}"#)
    }

    /// Keys are compared as Swift strings, so canonically equivalent spellings (é as one
    /// scalar or as e plus an accent, K or the Kelvin sign) are the same key.
    @Test func canonicallyEquivalentKeys() {
        struct Cafe: Decodable, Equatable {
            // swift-format-ignore: IdentifiersMustBeASCII
            var café: Int
            enum CodingKeys: String, CodingKey { case café = "caf\u{E9}" }
        }
        // swift-format-ignore: AlwaysUseLowerCamelCase
        struct Kelvin: Decodable, Equatable { var K: Int }
        both.expectSame(Cafe.self, "{\"cafe\u{301}\":1}")
        both.expectSame(Cafe.self, #"{"cafe\u0301":1}"#)
        both.expectSame(Cafe.self, "{\"cafe\u{301}\":1,\"caf\u{E9}\":2}")
        both.expectSame(Cafe.self, "{\"caf\u{E9}\":1,\"cafe\u{301}\":2}")
        both.expectSame(Kelvin.self, "{\"\u{212A}\":1}")
        both.expectSame([String: Bool].self, #"{"caf\u00e9":true,"cafe\u0301":false}"#)
        both.expectSame(KeyProbe.self, "{\"caf\u{E9}\":\"a\",\"cafe\u{301}\":\"b\"}")
    }

    @Test func duplicateKeysFirstWins() {
        struct Model: Decodable, Equatable {
            var a: Int
            var b: String?
        }
        for json in [
            #"{"a":1,"a":2}"#, #"{"a":1,"a":"x"}"#, #"{"a":"x","a":1}"#, #"{"a":1,"\u0061":2}"#, #"{"\u0061":1,"a":2}"#,
            #"{"b":"1","a":1,"b":"2","a":2}"#, #"{"a":null,"a":1}"#,
        ] {
            both.expectSame(Model.self, json)
            both.expectSame([String: Int].self, json)
            both.expectSame(
                KeyProbe.self, json.replacingOccurrences(of: ":1", with: #":"1""#).replacingOccurrences(of: ":2", with: #":"2""#))
        }
    }

    /// One key repeated 20,000 times, and 4,000 distinct keys crafted to share the scanner's
    /// key hash (same length, same first and last eight bytes). Both took n² steps once
    /// (seconds for these sizes; `Benchmarks/` measures the growth); the answer must still be Foundation's, in both policies,
    /// as a struct, a `JSONValue`, a dictionary and through a keyed container.
    @Test func repeatedAndCollidingKeysAtScale() throws {
        struct Model: Decodable, Equatable {
            var a: Int
            var b: String?
            var c: Bool?
        }
        let repeated = "{" + Array(repeating: #""a":1"#, count: 20_000).joined(separator: ",") + #","b":"x"}"#
        let colliding =
            "{"
            + (0..<4_000).map { #""prefix00\#(String(format: "%06d", $0))suffix00":1"# }
            .joined(separator: ",") + #","a":2}"#
        for json in [repeated, colliding] {
            both.expectSame(Model.self, json)
            both.expectSame([String: Int].self, json)
            let lenient = ResilientJSONDecoder(policy: .lenient)
            #expect(try lenient.decode(Model.self, from: Data(json.utf8)) == both.foundation.decode(Model.self, from: Data(json.utf8)))
            let value = try lenient.decode(JSONValue.self, from: Data(json.utf8))
            guard case .object(let members) = value else {
                Issue.record("not an object")
                continue
            }
            #expect(members["a"] == .integer(json == repeated ? 1 : 2))
            #expect(members.count == (json == repeated ? 2 : 4_001))
            let numbersOnly = json.replacingOccurrences(of: #""x""#, with: "2")
            both.expectSame(IntKeyProbe.self, numbersOnly)
            #expect(
                try lenient.decode(IntKeyProbe.self, from: Data(numbersOnly.utf8))
                    == both.foundation.decode(IntKeyProbe.self, from: Data(numbersOnly.utf8)))
        }
    }

    // MARK: Structure

    @Test func missingNullAndWrongTypesAtDepth() {
        struct Leaf: Codable, Equatable {
            var id: Int
            var name: String
            var tags: [String]
        }
        struct Branch: Codable, Equatable {
            var leaves: [Leaf]
            var index: [String: Leaf]
            var first: Leaf?
        }
        struct Tree: Codable, Equatable {
            var branches: [Branch]
            var root: Branch
        }
        let leaf = #"{"id":1,"name":"a","tags":["x"]}"#
        let branch = #"{"leaves":[\#(leaf),\#(leaf)],"index":{"k":\#(leaf)},"first":\#(leaf)}"#
        let good = #"{"branches":[\#(branch),\#(branch)],"root":\#(branch)}"#
        both.expectSame(Tree.self, good)
        // Break one thing at a time, everywhere it can be broken.
        let breakages: [(String, String)] = [
            (#""id":1"#, #""id":"1""#), (#""id":1"#, #""id":null"#), (#""id":1"#, #""id":1.5"#), (#""id":1"#, #""ident":1"#),
            (#""name":"a""#, #""name":2"#), (#""name":"a""#, #""name":null"#), (#""tags":["x"]"#, #""tags":["x",3]"#),
            (#""tags":["x"]"#, #""tags":"x""#), (#""tags":["x"]"#, #""tags":[null]"#), (#""tags":["x"]"#, #""tags":{}"#),
            (#""index":{"k":"#, #""index":{"k":1,"j":"#), (#""first":"#, #""first":1,"other":"#), (#""leaves":["#, #""leaves":[null,"#),
        ]
        for (from, to) in breakages {
            var json = good
            var searchStart = json.startIndex
            // One occurrence at a time, from the first to the last.
            while let range = json.range(of: from, range: searchStart..<json.endIndex) {
                let broken = json.replacingCharacters(in: range, with: to)
                both.expectSame(Tree.self, broken)
                searchStart = range.upperBound
                json = good
            }
        }
        both.expectSame(Tree.self, "null")
        both.expectSame(Tree.self, "[]")
        both.expectSame(Tree.self, "{}")
        both.expectSame([Leaf].self, #"[\#(leaf),null]"#)
        both.expectSame([Leaf?].self, #"[\#(leaf),null]"#)
        both.expectSame([[Int]].self, "[[1],[2,null]]")
        both.expectSame([String: [Int]].self, #"{"a":[1],"b":[2,"3"]}"#)
    }

    @Test func optionals() {
        struct Model: Decodable, Equatable {
            var int: Int?
            var string: String?
            var nested: [Int?]?
            var date: Date?
            var url: URL?
        }
        for json in [
            #"{}"#, #"{"int":null,"string":null,"nested":null,"date":null,"url":null}"#, #"{"nested":[1,null,3]}"#,
            #"{"int":"1"}"#, #"{"string":1}"#, #"{"nested":[1,"2"]}"#, #"{"date":"x"}"#, #"{"url":1}"#, #"{"int":1.5}"#,
            #"{"int":300000000000000000000}"#, #"{"nested":{}}"#,
        ] {
            both.expectSame(Model.self, json)
        }
        both.expectSame(Int?.self, "null")
        both.expectSame(Int?.self, "1")
        both.expectSame([Int?].self, "[null,1]")
        both.expectSame(Int??.self, "null")
    }

    /// `decodeIfPresent` with a present value of the wrong type is an error, not `nil`.
    @Test func decodeIfPresentWithWrongTypeThrows() {
        struct Model: Decodable, Equatable {
            var value: Int?
            var list: [String]?
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                value = try container.decodeIfPresent(Int.self, forKey: AnyKey("value"))
                list = try container.decodeIfPresent([String].self, forKey: AnyKey("list"))
            }
        }
        for json in [#"{"value":"x"}"#, #"{"value":true}"#, #"{"list":[1]}"#, #"{"list":"x"}"#, #"{"value":null,"list":null}"#, "{}"] {
            both.expectSame(Model.self, json)
        }
    }

    @Test func enumsWithRawValues() {
        enum Fruit: String, Codable {
            case apple
            case pear = "PEAR"
        }
        enum Level: Int, Codable {
            case low = 1
            case high = 10
        }
        struct Model: Codable, Equatable {
            var fruit: Fruit
            var level: Level
            var more: [Fruit]?
        }
        for json in [
            #"{"fruit":"apple","level":1}"#, #"{"fruit":"PEAR","level":10,"more":["apple"]}"#, #"{"fruit":"pear","level":1}"#,
            #"{"fruit":"apple","level":2}"#, #"{"fruit":1,"level":1}"#, #"{"fruit":"apple","level":"1"}"#,
            #"{"fruit":"apple","level":1,"more":["apple","kiwi"]}"#, #"{"fruit":null,"level":1}"#, #"{"level":1.0,"fruit":"apple"}"#,
        ] {
            both.expectSame(Model.self, json)
        }
    }

    @Test func dictionariesWithStringAndIntKeys() {
        for json in [
            #"{"1":"a","2":"b"}"#, #"{"-1":"a"}"#, #"{"x":"a"}"#, #"{"1":1}"#, #"{"01":"a"}"#, #"{"1":"a","1":"b"}"#, "{}", "[]",
            #"{"9999999999999999999999":"a"}"#, #"{" 1":"a"}"#,
        ] {
            both.expectSame([Int: String].self, json)
            both.expectSame([String: String].self, json)
            both.expectSame(Box<[Int: String]>.self, #"{"value":\#(json)}"#)
        }
        both.expectSame([String: [Int: Bool]].self, #"{"a":{"1":true,"2":false},"b":{"3":null}}"#)
    }

    /// Records the coding path every container reports, and the errors they throw.
    struct PathProbe: Decodable, Equatable {
        var paths: [String] = []
        enum Top: String, CodingKey { case a, b, c, missing }
        enum Mid: String, CodingKey { case one, two }

        init(from decoder: any Decoder) throws {
            func note(_ label: String, _ path: [any CodingKey]) {
                paths.append(label + ":" + path.map { "\($0.stringValue)#\($0.intValue.map(String.init) ?? "-")" }.joined(separator: "/"))
            }
            func attempt(_ label: String, _ body: () throws -> Void) {
                do { try body() } catch { paths.append("\(label) threw \(ErrorShape(error))") }
            }
            note("decoder", decoder.codingPath)
            let top = try decoder.container(keyedBy: Top.self)
            note("top", top.codingPath)
            let mid = try top.nestedContainer(keyedBy: Mid.self, forKey: .a)
            note("mid", mid.codingPath)
            attempt("third") {
                let third = try mid.nestedContainer(keyedBy: Mid.self, forKey: .one)
                note("third", third.codingPath)
                attempt("third.two") { _ = try third.decode(Int.self, forKey: .two) }
            }
            attempt("midList") {
                var list = try mid.nestedUnkeyedContainer(forKey: .two)
                note("midList", list.codingPath)
                attempt("element") { note("element", try list.nestedContainer(keyedBy: Mid.self).codingPath) }
                attempt("element2") { note("element2", try list.nestedUnkeyedContainer().codingPath) }
                attempt("elementSuper") { note("elementSuper", try list.superDecoder().codingPath) }
                attempt("pastEnd") { _ = try list.decode(Int.self) }
                attempt("pastEndNil") { _ = try list.decodeNil() }
                attempt("pastEndNested") { _ = try list.nestedContainer(keyedBy: Mid.self) }
                attempt("ifPresentPastEnd") { paths.append("ifPresent \(String(describing: try list.decodeIfPresent(Int.self)))") }
                attempt("ifPresentPastEnd2") { paths.append("ifPresent \(String(describing: try list.decodeIfPresent(Item.self)))") }
                note("index\(list.currentIndex) atEnd \(list.isAtEnd)", list.codingPath)
            }
            attempt("bList") {
                var list = try top.nestedUnkeyedContainer(forKey: .b)
                attempt("b0ifPresent") { paths.append("b0 \(String(describing: try list.decodeIfPresent(Int.self)))") }
                attempt("b0") { _ = try list.decode(String.self) }
                attempt("b0nil") { paths.append("b0 isNil \(try list.decodeNil())") }
                attempt("b0int") { paths.append("b0 \(try list.decode(Int.self))") }
                attempt("b1") { _ = try list.nestedUnkeyedContainer() }
                attempt("b1keyed") { _ = try list.nestedContainer(keyedBy: Mid.self) }
                note("b index \(list.currentIndex)", list.codingPath)
            }
            attempt("missingNested") { _ = try top.nestedContainer(keyedBy: Mid.self, forKey: .missing) }
            attempt("missingList") { _ = try top.nestedUnkeyedContainer(forKey: .missing) }
            attempt("cAsKeyed") { _ = try top.nestedContainer(keyedBy: Mid.self, forKey: .c) }
            attempt("cAsList") { _ = try top.nestedUnkeyedContainer(forKey: .c) }
            attempt("decodeNilMissing") { paths.append("nil \(try top.decodeNil(forKey: .missing))") }
            attempt("contains") { paths.append("contains \(top.contains(.a)) \(top.contains(.missing))") }
        }
    }

    struct Item: Decodable, Equatable, CustomStringConvertible {
        var id: Int
        var description: String { "Item(\(id))" }
    }

    @Test func nestedContainerPathsAndErrors() {
        for json in [
            #"{"a":{"one":{"two":1},"two":[{},[],{}]},"b":[1,[]],"c":null}"#,
            #"{"a":{"one":{"two":"x"},"two":[1,2,3]},"b":[null,{}],"c":3}"#,
            #"{"a":{"one":null,"two":null},"b":["s"],"c":[]}"#,
            #"{"a":{"one":[],"two":{}},"b":[],"c":{}}"#,
            #"{"a":{"one":{},"two":[]},"b":[null,null,{}],"c":1}"#,
        ] {
            both.expectSame(PathProbe.self, json)
        }
    }

    /// Classes that share one keyed container with their superclass, and those that hand it
    /// a super decoder, as Foundation's own tests model them.
    class Person: Decodable, Equatable {
        let name: String
        let email: String
        static func == (lhs: Person, rhs: Person) -> Bool { lhs.isEqual(rhs) }
        func isEqual(_ other: Person) -> Bool { type(of: self) == type(of: other) && name == other.name && email == other.email }
    }

    final class Employee: Person, @unchecked Sendable {
        let id: Int
        enum CodingKeys: String, CodingKey { case id }
        required init(from decoder: any Decoder) throws {
            id = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id)
            try super.init(from: decoder)
        }
        override func isEqual(_ other: Person) -> Bool { (other as? Employee)?.id == id && super.isEqual(other) }
    }

    final class Manager: Person, @unchecked Sendable {
        let reports: Int
        enum CodingKeys: String, CodingKey { case reports, base }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            reports = try container.decode(Int.self, forKey: .reports)
            try super.init(from: container.superDecoder(forKey: .base))
        }
        override func isEqual(_ other: Person) -> Bool { (other as? Manager)?.reports == reports && super.isEqual(other) }
    }

    final class Boss: Person, @unchecked Sendable {
        let level: Int
        enum CodingKeys: String, CodingKey { case level }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            level = try container.decode(Int.self, forKey: .level)
            try super.init(from: container.superDecoder())
        }
        override func isEqual(_ other: Person) -> Bool { (other as? Boss)?.level == level && super.isEqual(other) }
    }

    @Test func superDecoders() throws {
        both.expectSame(Employee.self, #"{"id":42,"name":"J","email":"j@x"}"#)
        both.expectSame(Employee.self, #"{"id":42,"name":"J"}"#)
        both.expectSame(Manager.self, #"{"reports":3,"base":{"name":"M","email":"m@x"}}"#)
        both.expectSame(Manager.self, #"{"reports":3,"base":{"name":"M","email":1}}"#)
        both.expectSame(Manager.self, #"{"reports":3}"#)
        both.expectSame(Manager.self, #"{"reports":3,"base":null}"#)
        both.expectSame([Manager].self, #"[{"reports":3,"base":{"name":"M","email":"m@x"}},{"reports":3,"base":{"name":"M"}}]"#)
        both.expectSame(Boss.self, #"{"level":1,"super":{"name":"B","email":"b@x"}}"#)
        both.expectSame(Boss.self, #"{"level":1,"super":{"name":"B"}}"#)
        both.expectSame(Boss.self, #"{"level":1}"#)
        // Decoding a subclass through its superclass's metatype still builds the subclass.
        let data = Data(#"{"id":42,"name":"J","email":"j@x"}"#.utf8)
        #expect(try both.ours.decode(Employee.self as Person.Type, from: data) is Employee)
    }

    /// A super decoder for a missing key reads as `null`, so `valueNotFound` can be caught.
    @Test func superDecoderForMissingKeyReadsNull() {
        struct Model: Decodable, Equatable {
            var a: Bool
            var nope: String?
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                a = try container.decode(Bool.self, forKey: AnyKey("a"))
                do {
                    nope = try container.superDecoder(forKey: AnyKey("nope")).singleValueContainer().decode(String.self)
                } catch DecodingError.valueNotFound {
                    nope = nil
                }
            }
        }
        both.expectSame(Model.self, #"{"a":true}"#)
        both.expectSame(Model.self, #"{"a":true,"nope":"yes"}"#)
        both.expectSame(Model.self, #"{"a":true,"nope":1}"#)
    }

    @Test func userInfoReachesEveryLevel() {
        let key = CodingUserInfoKey(rawValue: "test.multiplier")!
        struct Scaled: Decodable, Equatable {
            var value: Int
            init(_ value: Int) { self.value = value }
            init(from decoder: any Decoder) throws {
                let factor = decoder.userInfo[CodingUserInfoKey(rawValue: "test.multiplier")!] as? Int ?? 1
                value = try decoder.singleValueContainer().decode(Int.self) * factor
            }
        }
        struct Model: Decodable, Equatable {
            var top: Scaled
            var list: [Scaled]
            var map: [String: Scaled]
        }
        let decoders = Decoders { f, o in
            f.userInfo[key] = 3
            o.userInfo[key] = 3
        }
        let value = decoders.expectSame(Model.self, #"{"top":1,"list":[2],"map":{"k":4}}"#)
        #expect(value == .value(Model(top: Scaled(3), list: [Scaled(6)], map: ["k": Scaled(12)])))
    }

    // MARK: Property-based models

    struct RandomModel: Codable, Equatable {
        enum Mode: String, Codable, CaseIterable {
            case alpha, beta
            case gamma = "Gamma Ray"
        }
        enum Level: Int, Codable, CaseIterable {
            case low = -1
            case mid = 0
            case high = 99
        }
        struct Child: Codable, Equatable {
            var label: String
            var values: [Double?]
            var flags: [String: Bool]
            var grandchildren: [Child]?
        }
        var id: Int
        var name: String
        var score: Double
        var ratio: Float
        var flag: Bool
        var small: Int8
        var big: UInt64
        var signed: Int64
        var optional: Int16?
        var tags: [String]
        var counts: [String: UInt32]
        var byNumber: [Int: String]
        var children: [Child]
        var nested: Child?
        var decimal: Decimal
        var date: Date
        var bytes: Data
        var mode: Mode
        var level: Level
        var set: Set<Int32>
        var matrix: [[Int]]
        var link: URL?
    }

    static func randomString(_ rng: inout some RandomNumberGenerator) -> String {
        let pool: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "é", "ß", "€", "中", "😀", "\u{301}", "\u{FEFF}", "\u{2028}",
        ]
        return String(
            String.UnicodeScalarView((0..<Int.random(in: 0...12, using: &rng)).map { _ in pool.randomElement(using: &rng) ?? "a" }))
    }

    static func randomDouble(_ rng: inout some RandomNumberGenerator) -> Double {
        switch Int.random(in: 0...3, using: &rng) {
        case 0: return Double(Int.random(in: -1000...1000, using: &rng))
        case 1: return Double.random(in: -1...1, using: &rng)
        default:
            let value = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &rng))
            return value.isFinite ? value : 0
        }
    }

    static func randomChild(_ rng: inout some RandomNumberGenerator, depth: Int) -> RandomModel.Child {
        RandomModel.Child(
            label: randomString(&rng),
            values: (0..<Int.random(in: 0...4, using: &rng)).map { _ in Bool.random(using: &rng) ? randomDouble(&rng) : nil },
            flags: Dictionary(
                (0..<Int.random(in: 0...3, using: &rng)).map { _ in (randomString(&rng), Bool.random(using: &rng)) },
                uniquingKeysWith: { a, _ in a }),
            grandchildren: depth > 2 || Bool.random(using: &rng)
                ? nil : (0..<Int.random(in: 0...2, using: &rng)).map { _ in randomChild(&rng, depth: depth + 1) })
    }

    static let randomModels = Generator<RandomModel, Shrink.None<RandomModel>> { rng in
        RandomModel(
            id: Int.random(in: .min ... .max, using: &rng),
            name: randomString(&rng),
            score: randomDouble(&rng),
            ratio: Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &rng)).isFinite
                ? Float(bitPattern: UInt32.random(in: 0...0x7F00_0000, using: &rng)) : 1,
            flag: Bool.random(using: &rng),
            small: Int8.random(in: .min ... .max, using: &rng),
            big: UInt64.random(in: .min ... .max, using: &rng),
            signed: Int64.random(in: .min ... .max, using: &rng),
            optional: Bool.random(using: &rng) ? Int16.random(in: .min ... .max, using: &rng) : nil,
            tags: (0..<Int.random(in: 0...5, using: &rng)).map { _ in randomString(&rng) },
            counts: Dictionary(
                (0..<Int.random(in: 0...5, using: &rng)).map { _ in (randomString(&rng), UInt32.random(in: 0...UInt32.max, using: &rng)) },
                uniquingKeysWith: { a, _ in a }),
            byNumber: Dictionary(
                (0..<Int.random(in: 0...4, using: &rng)).map { _ in (Int.random(in: -1000...1000, using: &rng), randomString(&rng)) },
                uniquingKeysWith: { a, _ in a }),
            children: (0..<Int.random(in: 0...3, using: &rng)).map { _ in randomChild(&rng, depth: 0) },
            nested: Bool.random(using: &rng) ? randomChild(&rng, depth: 1) : nil,
            decimal: Decimal(string: "\(Int64.random(in: .min ... .max, using: &rng))e\(Int.random(in: -30...30, using: &rng))") ?? 0,
            date: Date(timeIntervalSinceReferenceDate: randomDouble(&rng)),
            bytes: Data((0..<Int.random(in: 0...9, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }),
            mode: RandomModel.Mode.allCases.randomElement(using: &rng) ?? .alpha,
            level: RandomModel.Level.allCases.randomElement(using: &rng) ?? .low,
            set: Set((0..<Int.random(in: 0...4, using: &rng)).map { _ in Int32.random(in: .min ... .max, using: &rng) }),
            matrix: (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: -9...9, using: &rng) }
            },
            link: Bool.random(using: &rng) ? URL(string: "https://example.com/\(Int.random(in: 0...999, using: &rng))?q=a%20b") : nil)
    }

    @Test func randomModelsDecodeLikeFoundation() async throws {
        await propertyCheck(count: 150, input: Self.randomModels) { model in
            let encoder = JSONEncoder()
            encoder.outputFormatting = Bool.random() ? [.sortedKeys] : [.prettyPrinted, .withoutEscapingSlashes]
            let data = try encoder.encode(model)
            let outcome = both.expectSame(RandomModel.self, data, "random model")
            // Foundation must round-trip its own encoder's output, or the comparison proves little.
            if case .value(let decoded) = outcome {
                #expect(decoded.id == model.id && decoded.children == model.children && decoded.set == model.set)
            }
            both.expectSame(JSONValue.self, data, "random model as JSONValue")
        }
    }

    // MARK: Benchmark corpus

    @Test(.needsCorpus, arguments: ["twitter.json", "citm_catalog.json", "canada.json"])
    func benchmarkDocumentsDecodeAlike(_ name: String) throws {
        let root = try #require(Corpus.root, "\(Corpus.absence)")
        let data = try Data(contentsOf: root.appendingPathComponent("benchmark/\(name)"))
        let expected = try JSONDecoder().decode(JSONValue.self, from: data)
        let actual = try ResilientJSONDecoder.strict.decode(JSONValue.self, from: data)
        // A whole document: on failure, show where the two differ, not two 600 KB dumps.
        expectNoDifference(actual, expected)
        #expect(try ResilientJSONDecoder.lenient.decodeWithReport(JSONValue.self, from: data).repairs.isEmpty)
    }
}

/// Decodes `T` if it can, else `U`, from the same single-value container: the second
/// attempt shows whether the first left the decoder in a broken state.
enum Either<T: Decodable & Equatable, U: Decodable & Equatable>: Decodable, Equatable {
    case t(T)
    case u(U)
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            self = .t(try container.decode(T.self))
        } catch {
            self = .u(try container.decode(U.self))
        }
    }
}
