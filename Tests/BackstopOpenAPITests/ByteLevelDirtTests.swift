import Backstop
import BackstopJSON
import Foundation
import TestCorpus
import Testing

@testable import BackstopOpenAPI

/// Byte-level dirt (what a lenient parse accepts and Foundation's `JSONDecoder` refuses) never
/// reaches the generated code: the repair step writes it out and reports it, or fails.
@Suite("The repair step and byte-level dirt")
struct ByteLevelDirtTests {
    /// An operation whose 200 is any JSON (a content without a schema), and `getGroup`'s typed one.
    static let document = Documents.yaml30.replacingOccurrences(
        of: "  /groups:\n",
        with: """
              /anything:
                get:
                  operationId: getAnything
                  responses:
                    '200':
                      description: Any JSON.
                      content:
                        application/json: {}
              /groups:

            """)

    /// nst/JSONTestSuite's parsing cases, from the corpus beside the repository.
    static let parsingCases = Corpus.files("JSONTestSuite/test_parsing")

    static func parses(_ data: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
    }

    @Test func trailingCommasInsideACleanValueAreWrittenOutAndReported() throws {
        let contract = try Documents.contract(Self.document)
        let clean = OpenAPIRepairTests.clean
        let cases: [(body: String, paths: [String])] = [
            (clean.replacingOccurrences(of: #""role":"admin"}"#, with: #""role":"admin",}"#), ["$.members[0]"]),
            (clean.replacingOccurrences(of: #""category":"food"}"#, with: #""category":"food",}"#), ["$"]),
            (clean.replacingOccurrences(of: #""role":"admin"}]"#, with: #""role":"admin",},]"#), ["$.members", "$.members[0]"]),
        ]
        for (body, paths) in cases {
            let repaired = try contract.repair(Data(body.utf8), operationID: "getGroup", status: 200, contentType: "application/json")
            #expect(repaired.repairs.map(\.action) == paths.map { _ in .ignoredTrailingComma }, "\(body)")
            #expect(repaired.repairs.map(\.path) == paths, "\(body)")
            #expect(String(decoding: repaired.body, as: UTF8.self) == clean, "\(body)")
        }
        // In a value of any JSON too: `[1,2,]` and an object's inside a list.
        for (body, expected, path) in [("[1,2,]", "[1,2]", "$"), (#"{"a":[{"b":1,}],"c":2}"#, #"{"a":[{"b":1}],"c":2}"#, "$.a[0]")] {
            let repaired = try contract.repair(Data(body.utf8), operationID: "getAnything", status: 200, contentType: nil)
            #expect(String(decoding: repaired.body, as: UTF8.self) == expected)
            #expect(repaired.repairs.map(\.path) == [path])
            #expect(repaired.repairs.map(\.action) == [.ignoredTrailingComma])
        }
    }

    @Test func aTrailingCommaIsNotJSONUnderAStrictPolicy() throws {
        let contract = try Documents.contract(Self.document, policy: .strict)
        let body = OpenAPIRepairTests.clean.replacingOccurrences(of: #""role":"admin"}"#, with: #""role":"admin",}"#)
        #expect {
            try contract.repair(Data(body.utf8), operationID: "getGroup", status: 200, contentType: "application/json")
        } throws: { error in
            (error as? DecodingFailure)?.problem == .notJSON
        }
        // As the strict decoder: not JSON at all.
        #expect(throws: DecodingError.self) { try ResilientJSONDecoder(policy: .strict).decode(JSONValue.self, from: Data(body.utf8)) }
    }

    @Test func dirtInAKeyIsWrittenOutAndReported() throws {
        let contract = try Documents.contract(Self.document)
        // An unknown member of a typed object, whose key holds a raw tab: the value is clean.
        let body = OpenAPIRepairTests.clean.replacingOccurrences(of: #""id":7"#, with: "\"id\":7,\"x\ty\":1")
        let repaired = try contract.repair(Data(body.utf8), operationID: "getGroup", status: 200, contentType: "application/json")
        #expect(repaired.repairs.map(\.action) == [.acceptedControlCharacter])
        #expect(repaired.repairs.map(\.path) == ["$['x\ty']"])
        #expect(Self.parses(repaired.body))
    }

    /// Every JSONTestSuite parsing case, against any JSON and against a typed schema, with the
    /// lenient and the strict policy: whatever the repair step hands on, Foundation reads.
    @Test(.needsCorpus, arguments: [DecodingPolicy.lenient, .strict])
    func everyBodyHandedOnIsJSONFoundationReads(_ policy: DecodingPolicy) throws {
        #expect(Self.parsingCases.count == 318, "JSONTestSuite/test_parsing holds 318 cases")
        let contract = try Documents.contract(Self.document, policy: policy)
        var handedOn = 0
        for file in Self.parsingCases {
            let data = try Data(contentsOf: file)
            for operation in ["getAnything", "getGroup"] {
                guard let repaired = try? contract.repair(data, operationID: operation, status: 200, contentType: "application/json")
                else { continue }
                handedOn += 1
                let unchanged = repaired.body == data && repaired.repairs.isEmpty
                #expect(
                    Self.parses(repaired.body),
                    "\(file.lastPathComponent) as \(operation): \(unchanged ? "handed on as it came" : "repaired")")
            }
        }
        #expect(handedOn > 95)
    }
}
