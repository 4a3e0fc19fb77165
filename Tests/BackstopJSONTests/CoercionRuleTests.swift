import BackstopJSON
import Foundation
import Testing

/// The lenient policy and `@LenientScalar` coerce by the same rules: each input is accepted
/// by both with the same value and the same repair, or refused by both.
@Suite struct CoercionRuleTests {
    struct Wrapped<Value: LenientScalarValue & Codable & Equatable>: Decodable {
        @LenientScalar var value: Value
    }

    /// What one way of decoding made of `{"value": text}`: the value and the repair, or a refusal.
    struct Outcome<Value: Equatable>: Equatable, CustomStringConvertible {
        var value: Value?
        var found: Repair.Found?
        var description: String { value.map { "\($0) from \(found.map(\.description) ?? "itself")" } ?? "refused" }
    }

    private static func byPolicy<Value: Codable & Equatable>(_ type: Value.Type, _ text: String) -> Outcome<Value> {
        guard
            let report = try? ResilientJSONDecoder(policy: .lenient)
                .decodeWithReport(Box<Value>.self, from: Data(#"{"value":\#(text)}"#.utf8))
        else { return Outcome() }
        return Outcome(value: report.value.value, found: report.repairs.first?.found)
    }

    /// The wrapper under a decoder whose own policy coerces nothing.
    private static func byWrapper<Value: LenientScalarValue & Codable & Equatable>(
        _ type: Value.Type, _ text: String, foundation: Bool
    ) -> Outcome<Value> {
        let data = Data(#"{"value":\#(text)}"#.utf8)
        let log = RepairLog()
        let value: Value?
        if foundation {
            let decoder = JSONDecoder()
            decoder.userInfo[.repairReporter] = log
            value = (try? decoder.decode(Wrapped<Value>.self, from: data))?.value
        } else {
            value = (try? ResilientJSONDecoder(policy: .strict, reporter: log).decode(Wrapped<Value>.self, from: data))?.value
        }
        return Outcome(value: value, found: value == nil ? nil : log.repairs.first?.found)
    }

    private static func expectAlike<Value: LenientScalarValue & Codable & Equatable>(
        _ type: Value.Type, _ text: String, foundation: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let policy = byPolicy(type, text)
        #expect(byWrapper(type, text, foundation: false) == policy, "\(Value.self) from \(text)", sourceLocation: sourceLocation)
        if foundation {
            #expect(
                byWrapper(type, text, foundation: true) == policy, "\(Value.self) from \(text) with JSONDecoder",
                sourceLocation: sourceLocation)
        }
    }

    static let numberTexts = [
        "42", #""42""#, #""-7""#, #""12.0""#, #""1e3""#, #""12.5""#, #""-1.5e-3""#, #""1e400""#,
        #""+42""#, #""0x10""#, #""nan""#, #""inf""#, #""-infinity""#, #"" 42""#, #""42 ""#, #""042""#,
        #"".5""#, #""5.""#, #""1_000""#, #""""#, "true", "[1]",
    ]

    @Test(arguments: numberTexts)
    func integersAlike(_ text: String) {
        Self.expectAlike(Int.self, text)
        Self.expectAlike(Int32.self, text)
        Self.expectAlike(UInt64.self, text)
    }

    /// Other decoders hand the wrapper unescaped text; ResilientJSONDecoder sees the escapes
    /// and, like Foundation for its non-conforming float strings, never reads them as numbers.
    @Test func escapedNumberTextIsRefusedAsWritten() {
        Self.expectAlike(Int.self, #""\u0034\u0032""#, foundation: false)
        Self.expectAlike(Double.self, #""\u0034\u0032""#, foundation: false)
        #expect(Self.byPolicy(Int.self, #""\u0034\u0032""#).value == nil)
    }

    @Test(arguments: numberTexts)
    func floatingPointAlike(_ text: String) {
        Self.expectAlike(Double.self, text)
        Self.expectAlike(Float.self, text)
    }

    /// Other decoders hand the wrapper a number's value, not its text: `1.0` is `1` there,
    /// so numbers other than `0` and `1` as written are checked with ResilientJSONDecoder only.
    @Test(arguments: [
        "true", "1", "0", #""1""#, #""0""#, #""true""#, #""false""#,
        "2", #""2""#, #""yes""#, #""TRUE""#, #"" true""#, #""""#, "null", "[true]",
    ])
    func boolsAlike(_ text: String) {
        Self.expectAlike(Bool.self, text)
    }

    @Test(arguments: ["1.0", "1e0", "-0", "0.0"])
    func boolsFromNumbersAsWritten(_ text: String) {
        Self.expectAlike(Bool.self, text, foundation: false)
        #expect(Self.byPolicy(Bool.self, text).value == nil)
    }

    /// Other decoders give the wrapper a number's value, so there it is the value's text.
    @Test(arguments: ["42", "-7", "12.5", "1.50e3", "0.10", "true", "[1]", "{}"])
    func stringsAlike(_ text: String) {
        Self.expectAlike(String.self, text, foundation: ["42", "-7", "12.5", "true", "[1]", "{}"].contains(text))
    }

    @Test func theFourInputsOfTheIssueAreRefusedEverywhere() {
        for text in [#""nan""#, #""inf""#, #""0x10""#, #""+42""#] {
            #expect(Self.byPolicy(Double.self, text).value == nil)
            #expect(Self.byWrapper(Double.self, text, foundation: true).value == nil)
            #expect(Self.byWrapper(Double.self, text, foundation: false).value == nil)
        }
    }
}
