import BackstopJSON
import Foundation
import PropertyBased
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
            Outcome { let value = try body(); return "\(value) \(value.sign) \(value.exponentBitPattern) \(value.significandBitPattern)" }
        }
        let data = Data("[\(text)]".utf8)
        let expected = bits { try decoders.foundation.decode([F].self, from: data)[0] }
        let actual = bits { try decoders.ours.decode([F].self, from: data)[0] }
        #expect(actual == expected, "\(text) as \(F.self): Foundation \(expected), ResilientJSONDecoder \(actual)", sourceLocation: sourceLocation)
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
        let exponent = [Int.random(in: -30...30, using: &rng), Int.random(in: -360...330, using: &rng), Int.random(in: -60...50, using: &rng)]
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
            foundation.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
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
            while power >= 29 { multiply(by: 1 << 29); power -= 29 }
            multiply(by: 1 << UInt64(power))
        } else {
            decimalExponent = power
            var k = -power
            while k >= 13 { multiply(by: 1_220_703_125); k -= 13 }
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
        while below[i] == UInt8(ascii: "0") { below[i] = UInt8(ascii: "9"); i -= 1 }
        below[i] -= 1
        let belowText = String(decoding: below, as: UTF8.self)
        return [
            "\(digits)e\(decimalExponent)",
            "\(digits)1e\(decimalExponent - 1)",
            "\(belowText)9e\(decimalExponent - 1)",
        ]
    }
}
