import Backstop
import Foundation
import Testing

@Suite("Bodies that break the contract")
struct ContractBrokenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let body: String
        let part: DecodingFailure.Part
        let path: String
        let problem: DecodingFailure.Problem
        /// Words the developer description must contain.
        let mentions: [String]
        /// Lenient decoding defaults missing keys, so some cases need a strict decoder.
        var policy: DecodingPolicy = .lenient
        var testDescription: String { name }
    }

    static let shapeA: [Case] = [
        Case(
            name: "HTML error page", body: "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head></html>",
            part: .body, path: "$", problem: .notJSON,
            mentions: ["body is not JSON", "code at $.statusCode", #"<!DOCTYPE html>\u{A}<html>"#]),
        Case(
            name: "empty body", body: "", part: .body, path: "$", problem: .emptyBody,
            mentions: ["body is empty", "code at $.statusCode"]),
        Case(name: "whitespace only", body: " \n ", part: .body, path: "$", problem: .emptyBody, mentions: ["body is empty"]),
        Case(
            name: "truncated JSON", body: #"{"statusCode":200,"message":"success","result":{"data":{"id":1,"na"#,
            part: .body, path: "$", problem: .notJSON, mentions: ["body is not JSON", #"{"statusCode":200"#]),
        Case(
            name: "array instead of object", body: #"[{"id":1,"name":"a"}]"#, part: .body, path: "$", problem: .wrongType,
            mentions: ["expected an object, found array", #"body: [{"id":1"#]),
        Case(
            name: "missing code", body: #"{"message":"success","result":{"data":{"id":1,"name":"a"}}}"#,
            part: .code, path: "$.statusCode", problem: .missing, mentions: ["code at $.statusCode is missing"]),
        Case(
            name: "null code", body: #"{"statusCode":null}"#, part: .code, path: "$.statusCode", problem: .null,
            mentions: ["code at $.statusCode is null"]),
        Case(
            name: "boolean code", body: #"{"statusCode":true}"#, part: .code, path: "$.statusCode", problem: .wrongType,
            mentions: ["expected a whole number or a string, found bool"]),
        Case(
            name: "fractional code", body: #"{"statusCode":200.5}"#, part: .code, path: "$.statusCode", problem: .wrongType,
            mentions: ["found number"]),
        Case(
            name: "empty code", body: #"{"statusCode":""}"#, part: .code, path: "$.statusCode", problem: .missing,
            mentions: ["empty string"]),
        Case(
            name: "missing payload", body: #"{"statusCode":200,"result":{}}"#, part: .payload, path: "$.result.data",
            problem: .missing, mentions: ["payload at $.result.data is missing"]),
        Case(
            name: "missing result", body: #"{"statusCode":200}"#, part: .payload, path: "$.result.data",
            problem: .missing, mentions: ["payload at $.result.data is missing"]),
        Case(
            name: "null payload", body: #"{"statusCode":200,"result":{"data":null}}"#, part: .payload, path: "$.result.data",
            problem: .null, mentions: ["payload at $.result.data is null"]),
        Case(
            name: "payload of the wrong kind", body: #"{"statusCode":200,"result":{"data":[1,2]}}"#, part: .payload,
            path: "$.result.data", problem: .wrongType, mentions: ["payload at $.result.data has the wrong type"]),
        Case(
            name: "payload missing a key", body: #"{"statusCode":200,"result":{"data":{"id":1}}}"#, part: .payload,
            path: "$.result.data.name", problem: .missing, mentions: ["payload at $.result.data.name is missing"], policy: .strict),
        Case(
            name: "payload value of the wrong type", body: #"{"statusCode":200,"result":{"data":{"id":{},"name":"a"}}}"#,
            part: .payload, path: "$.result.data.id", problem: .wrongType, mentions: ["payload at $.result.data.id"]),
    ]

    @Test("contract A", arguments: shapeA)
    func brokenBody(_ testCase: Case) throws {
        let decoder = ResilientJSONDecoder(policy: testCase.policy)
        let error = try #require(unwrap(Product.self, testCase.body, with: Shape.a.contract, decoder: decoder).failure)
        let failure = try #require(error.decodingFailure, "\(error)")
        #expect(failure.part == testCase.part)
        #expect(failure.path == testCase.path)
        #expect(failure.problem == testCase.problem)
        for text in testCase.mentions {
            #expect(error.description.contains(text), "\(error.description) should mention \(text)")
        }
        #expect(!error.description.contains("\n"))
        let trimmed = testCase.body.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty { #expect(!failure.excerpt.isEmpty) }
    }

    @Test("the same bodies are decoding errors under every shape, never a crash", arguments: Shape.all)
    func everyShape(shape: Shape) {
        for testCase in Self.shapeA {
            let result = unwrap(Product.self, testCase.body, with: shape.contract, decoder: ResilientJSONDecoder(policy: testCase.policy))
            // Under B a body of shape A lacks the code; under C it is read like A.
            #expect(result.failure?.decodingFailure != nil, "\(shape.name): \(testCase.name)")
        }
    }

    @Test("a strict decoder reports the payload error at the exact path")
    func strictPayload() throws {
        let body = #"{"code":200,"data":[{"id":1,"name":"a"},{"id":"2","name":"b"}]}"#
        let error = try #require(
            unwrap([Product].self, body, with: Shape.b.contract, decoder: ResilientJSONDecoder(policy: .strict)).failure)
        #expect(error.decodingFailure?.path == "$.data[1].id")
        #expect(error.decodingFailure?.problem == .wrongType)
        #expect(error.groupingIdentifier == "decoding.payload.wrongType.$.data[*].id")
    }

    @Test("a long body is cut in the excerpt")
    func longExcerpt() throws {
        let body = "<html>" + String(repeating: "x", count: 10_000) + "</html>"
        let failure = try #require(unwrap(Product.self, body, with: Shape.a.contract).failure?.decodingFailure)
        #expect(failure.excerpt.count <= 121)
        #expect(failure.excerpt.hasSuffix("…"))
    }

    /// Found by the contract fuzzer: a space right after the 120th character stepped over the limit.
    @Test("a long body is cut in the excerpt wherever its spaces fall")
    func longExcerptWithSpaces() throws {
        for length in 110...130 {
            let body = String(repeating: "x", count: length) + " " + String(repeating: "y", count: 800)
            let failure = try #require(unwrap(Product.self, body, with: Shape.a.contract).failure?.decodingFailure)
            #expect(failure.excerpt.count <= 121, "\(length) characters before the space")
            #expect(failure.excerpt.hasSuffix("…"))
            #expect(!failure.excerpt.contains(" …"))
        }
    }

    @Test("bytes that are not UTF-8 still make an excerpt")
    func binaryBody() throws {
        let body = Data([0xFF, 0xFE, 0x00, 0x41, 0x80])
        let error = Result { () throws(StudyGroupError) in
            try Shape.a.contract.unwrap(Product.self, from: body, response: HTTPResponse(status: .ok), throwing: StudyGroupError.self)
        }.failure
        let failure = try #require(error?.decodingFailure)
        #expect(failure.problem == .notJSON)
        #expect(!failure.excerpt.isEmpty)
    }
}
