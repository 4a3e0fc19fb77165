import Backstop
import BackstopJSON
import Foundation
import Testing

@testable import BackstopOpenAPI

/// The clean path's one pass over the bytes (`StreamingCheck`): which bodies it tells clean by
/// itself, and that every body it is not sure of gets exactly what the tape-based walk gives.
@Suite("The clean path's one pass over the bytes")
struct StreamingCheckTests {
    static let clean = OpenAPIRepairTests.clean

    /// Whether the one pass alone tells `body` clean as `operation`'s 200, and what `repair` gives.
    static func check(_ body: String, operation: String = "getGroup") throws -> (streamed: Bool, repaired: RepairedBody) {
        let contract = try Documents.contract()
        guard case .schema(let root) = contract.compiled.schema(operationID: operation, status: 200, contentType: "application/json")
        else {
            Issue.record("\(operation) has no schema")
            return (false, RepairedBody(body: Data()))
        }
        let data = Data(body.utf8)
        let streamed = contract.compiled.streamingFits(data, root: root)
        let repaired = try contract.repair(data, operationID: operation, status: 200, contentType: "application/json")
        return (streamed, repaired)
    }

    /// `body` with `property` added to the group's members.
    static func with(_ member: String) -> String {
        clean.replacingOccurrences(of: #""category":"food""#, with: #""category":"food","#.appending(member))
    }

    @Test func escapesAndSurrogatePairsAreCleanForThePass() throws {
        let body = Self.with(#""nickname":"Sw\"i\\f\/t \u00e9\u00E9 \ud83d\ude00 \b\f\n\r\t end""#)
        let (streamed, repaired) = try Self.check(body)
        #expect(streamed)
        #expect(repaired.body == Data(body.utf8))
        #expect(repaired.repairs.isEmpty)
    }

    @Test func wellFormedUTF8OfEveryLengthIsCleanForThePass() throws {
        // Two-, three- and four-byte sequences, at the edges of what UTF-8 allows, past eight-byte words.
        let text = "Grüße, 日本語のテキスト \u{7F} \u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF} 😀😀😀"
        let body = Self.with(#""nickname":""# + text + #"""#)
        let (streamed, repaired) = try Self.check(body)
        #expect(streamed)
        #expect(repaired.body == Data(body.utf8))
        #expect(repaired.repairs.isEmpty)
    }

    @Test func numbersAtTheEdgesOfTheGrammar() throws {
        // Clean for the pass: integers of up to 18 digits, exponents of up to two.
        for (id, score) in [
            ("0", "0"), ("-0", "-0.0"), ("922337203685477580", "1e99"), ("-922337203685477580", "-1.5E-99"), ("42", "0.000001e-7"),
        ] {
            let body = Self.with(id: id, score: score)
            let (streamed, repaired) = try Self.check(body)
            #expect(streamed, "id \(id), score \(score)")
            #expect(repaired.body == Data(body.utf8))
            #expect(repaired.repairs.isEmpty)
        }
        // Beyond those the pass is not sure, and the tape-based walk finds them clean.
        let long = "1" + String(repeating: "0", count: 249)
        for (id, score) in [("9223372036854775807", "1e308"), ("-9223372036854775808", "1.7976931348623157e308"), ("7", long)] {
            let body = Self.with(id: id, score: score)
            let (streamed, repaired) = try Self.check(body)
            #expect(!streamed, "id \(id), score \(score)")
            #expect(repaired.body == Data(body.utf8))
            #expect(repaired.repairs.isEmpty)
        }
    }

    @Test func numbersTheGeneratedCodeCannotReadAreNeverHandedOn() throws {
        // Foundation reads no `Double` from a number that overflows or a non-zero one that rounds
        // to zero: the optional score is set to nil.
        for score in ["1E+400", "-1e999", "1e-400"] {
            let (streamed, repaired) = try Self.check(Self.with(id: "7", score: score))
            #expect(!streamed)
            #expect(repaired.repairs.map(\.action) == [.setToNil], "\(score)")
            #expect(repaired.repairs.map(\.path) == ["$.score"], "\(score)")
            #expect(!String(decoding: repaired.body, as: UTF8.self).contains("score"), "\(score)")
        }
        // An integer the generated code's `Int` cannot hold, where one is required: the call fails, naming it.
        #expect {
            try Self.check(Self.with(id: "123456789012345678901234567890", score: "1"))
        } throws: { error in
            (error as? DecodingFailure)?.path == "$.id"
        }
    }

    /// The clean body with `id` and `score` as given.
    static func with(id: String, score: String) -> String {
        clean.replacingOccurrences(of: #""id":7"#, with: #""id":\#(id),"score":\#(score)"#)
    }

    @Test func deepNestingIsCleanForThePassUpToItsBoundThenForTheTapeBasedWalk() throws {
        for (depth, expectStreamed) in [(100, true), (StreamingCheck.maximumDepth + 20, false), (400, false)] {
            let nested = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
            let body = Self.with(#""extra":"# + nested)
            let (streamed, repaired) = try Self.check(body)
            #expect(streamed == expectStreamed, "depth \(depth)")
            #expect(repaired.body == Data(body.utf8))
            #expect(repaired.repairs.isEmpty)
        }
    }

    @Test func whatThePassIsNotSureOfStillFitsOnTheTape() throws {
        // An escaped key, an escaped enum value, a byte order mark: clean, but only the tape tells.
        for body in [
            Self.clean.replacingOccurrences(of: #""name""#, with: #""n\u0061me""#),
            Self.clean.replacingOccurrences(of: #""food""#, with: #""f\u006Fod""#),
            "\u{FEFF}" + Self.clean,
        ] {
            let (streamed, repaired) = try Self.check(body)
            #expect(!streamed)
            #expect(repaired.body == Data(body.utf8))
            #expect(repaired.repairs.isEmpty)
        }
    }

    @Test func aBodyThatNeedsARepairLateGivesTheTapeBasedWalksRepair() throws {
        // Long and clean up to the last member's id: the pass gives up there, and the walk starts over.
        let members = (1...50).map { #"{"id":\#($0),"role":"member"}"# }.joined(separator: ",")
        let body = #"{"id":7,"name":"Swift","members":[\#(members),{"id":"51","role":"admin"}],"createdAt":"2024-05-01T10:00:00Z"}"#
        let (streamed, repaired) = try Self.check(body)
        #expect(!streamed)
        #expect(
            repaired.repairs == [
                Repair(path: "$.members[50].id", expected: "integer", found: .init(kind: .string, excerpt: #""51""#), action: .coerced)
            ])
        #expect(String(decoding: repaired.body, as: UTF8.self) == body.replacingOccurrences(of: #""id":"51""#, with: #""id":51"#))
    }

    @Test func byteLevelDirtIsLeftToTheTapeBasedWalk() throws {
        let surrogate = try Self.check(Self.with(#""nickname":"a\ud800b""#))
        #expect(!surrogate.streamed)
        #expect(surrogate.repaired.repairs.map(\.action) == [.replacedInvalidUnicode])

        // A trailing comma inside a value that fits: the walk writes the value without it, and says so.
        let withComma = Self.clean.replacingOccurrences(of: #""role":"admin"}"#, with: #""role":"admin",}"#)
        let comma = try Self.check(withComma)
        #expect(!comma.streamed)
        #expect(comma.repaired.repairs.map(\.action) == [.ignoredTrailingComma])
        #expect(comma.repaired.repairs.map(\.path) == ["$.members[0]"])
        #expect(comma.repaired.body == Data(Self.clean.utf8))
    }

    @Test func aContentTypeFindsItsSchemaWhetherOrNotItIsWrittenCanonically() throws {
        let contract = try Documents.contract()
        let body = Data(Self.clean.utf8)
        for type in [nil, "", "application/json", "APPLICATION/JSON", " application/json ; charset=utf-8", "application/problem+json"] {
            let repaired = try contract.repair(body, operationID: "getGroup", status: 200, contentType: type)
            #expect(repaired.undescribed == nil, "\(type ?? "nil")")
            #expect(repaired.repairs.isEmpty)
        }
        let text = try contract.repair(body, operationID: "getGroup", status: 200, contentType: "text/plain")
        #expect(text.undescribed == "the response 200 of getGroup is text/plain, not JSON")
    }

    @Test func whatIsNotJSONFailsAsBefore() throws {
        for body in ["", "  \n", #"{"id":7"#, Self.clean + " x", #"{"id":7,"name":"Sw"#] {
            let contract = try Documents.contract()
            #expect(throws: DecodingFailure.self, "\(body)") {
                _ = try contract.repair(Data(body.utf8), operationID: "getGroup", status: 200, contentType: "application/json")
            }
        }
    }
}
