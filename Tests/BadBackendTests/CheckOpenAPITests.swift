import ArgumentParser
import Backstop
import BackstopJSON
import BackstopTestSupport
import BadBackend
import Foundation
import Testing

@testable import BackstopCLI

/// `backstop check --openapi openapi.yaml --operation getStudyGroup`: the repairs and drift the
/// document's schema calls for, which a model-less check cannot see.
@Suite("backstop check --openapi")
struct CheckOpenAPITests {
    /// BadBackend's own document, written to a file as an app keeps its `openapi.yaml`.
    static func documentFile() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString).yaml")
        try BadBackend.openAPIDocument.write(to: url)
        return url.path
    }

    /// `getStudyGroup`'s answer in `numbers-as-strings`, as BadBackend sends it.
    static let numbersAsStrings =
        #"{"code":200,"msg":"OK","data":{"id":"7","name":"Calculus B","teamCode":"K7Q2","role":"owner","memberCount":"3","members":[{"id":"1","nickname":"Ada"},{"id":"2","nickname":"Grace"},{"id":"3","nickname":"Linus"}]}}"#

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The schema's repairs and drift, which the model-less check does not see")
    func repairsAModelLessCheckCannotSee() async throws {
        let body = try CheckCommandTests.file(Self.numbersAsStrings)
        let document = try Self.documentFile()
        let modelLess = try await CheckCommandTests.report([body, "--contract", "b"])
        #expect(modelLess.exitCode == 0)
        #expect(modelLess.lines.contains("repairs: none"))
        #expect(!modelLess.lines.contains("contract drift:"))

        let report = try await CheckCommandTests.report([body, "--openapi", document, "--operation", "getStudyGroup", "--contract", "b"])
        #expect(report.exitCode == 0)
        let start = try #require(report.lines.firstIndex(of: "contract drift:"))
        #expect(
            Array(report.lines[..<start]) == [
                "operation: getStudyGroup, status 200, application/json",
                "schema: fits after 5 repairs",
                "schema repairs:",
                #"  $.data.id: expected integer, found string "7"; coerced"#,
                #"  $.data.memberCount: expected integer, found string "3"; coerced"#,
                #"  $.data.members[0].id: expected integer, found string "1"; coerced"#,
                #"  $.data.members[1].id: expected integer, found string "2"; coerced"#,
                #"  $.data.members[2].id: expected integer, found string "3"; coerced"#,
                "contract: code at $.code, message at $.msg, payload at $.data, success when code is 200",
                "payload: {id: number, memberCount: number, members: [3 × {id: number, nickname: string}], name: string, role: string, teamCode: string}",
                "repairs: none",
            ])
        let table = Array(report.lines[(start + 1)...])
        #expect(table.count == 4)
        #expect(table.dropFirst().allSatisfy { $0.contains("getStudyGroup") && $0.contains("coerced") })
        #expect(table.contains { $0.hasPrefix("  3      getStudyGroup  $.data.members[*].id ") })

        // Without --contract: the schema alone.
        let alone = try await CheckCommandTests.report([body, "--openapi", document, "--operation", "getStudyGroup"])
        #expect(alone.exitCode == 0)
        #expect(alone.lines.prefix(2) == ["operation: getStudyGroup, status 200, application/json", "schema: fits after 5 repairs"])
        #expect(!alone.lines.contains { $0.hasPrefix("contract: ") })
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A URL on BadBackend, every dirty scenario: the schema's repairs", arguments: Dirt.allCases)
    func dirtyScenarios(dirt: Dirt) async throws {
        let document = try Self.documentFile()
        try await withBackend { _, url in
            let report = try await CheckCommandTests.report([
                url.absoluteString + "/scenarios/\(dirt.rawValue)/b/study-groups/7", "--openapi", document, "--operation", "getStudyGroup",
                "--timeout", "60",
            ])
            #expect(report.exitCode == 0)
            #expect(report.lines.first == "operation: getStudyGroup, status 200, application/json; charset=utf-8")
            #expect(report.lines.dropFirst().first?.hasPrefix("schema: fits after ") == true)
            let product = try await CheckCommandTests.report([
                url.absoluteString + "/scenarios/\(dirt.rawValue)/b/products/2", "--openapi", document, "--operation", "getProduct",
                "--timeout", "60",
            ])
            #expect(product.exitCode == 0)
            if dirt == .unknownEnumValues {
                // Category names no fallback: the product is not given one; the optional `data` becomes null.
                #expect(
                    product.lines.dropFirst().prefix(3) == [
                        "schema: fits after 1 repair", "schema repairs:",
                        #"  $.data: expected Product, found string "hologram"; setToNil ($.data.category: "hologram" is not a value of Category)"#,
                    ])
            }
            let clean = try await CheckCommandTests.report([
                url.absoluteString + "/b/study-groups/7", "--openapi", document, "--operation", "getStudyGroup", "--timeout", "60",
            ])
            #expect(clean.lines.dropFirst().prefix(2) == ["schema: fits", "schema repairs: none"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Documents that cannot be read, operations not in them, and the flags that go together")
    func unreadableAndMissing() async throws {
        let body = try CheckCommandTests.file(Self.numbersAsStrings)
        let document = try Self.documentFile()
        let missing = try await CheckCommandTests.report([body, "--openapi", document, "--operation", "getGroup\u{1B}[2J"])
        #expect(missing.exitCode == 1)
        #expect(missing.lines.first == #"operation: getGroup\u{1B}[2J is not in the document; its body would be handed on unrepaired"#)

        let notADocument = try CheckCommandTests.file("groups: [1, 2")
        let cases: [([String], String)] = [
            (
                [body, "--openapi", "/no/such/openapi.yaml", "--operation", "x"],
                "cannot read OpenAPI document '/no/such/openapi.yaml': no such file"
            ),
            ([body, "--openapi", notADocument, "--operation", "x"], "OpenAPI document '\(notADocument)': "),
            (
                [body, "--openapi", document, "--operation", "x", "--max-bytes", "100"],
                "more than the limit of 100 bytes (--max-bytes raises it)"
            ),
        ]
        for (arguments, expected) in cases {
            let failure = await #expect(throws: CheckCommand.Unreadable.self) { try await CheckCommandTests.report(arguments) }
            #expect(failure?.description.contains(expected) == true, "\(String(describing: failure))")
        }
        #expect(throws: (any Error).self) { try CheckCommand.parse([body, "--openapi", document]) }
        #expect(throws: (any Error).self) { try CheckCommand.parse([body, "--operation", "getStudyGroup", "--contract", "b"]) }
        #expect(throws: (any Error).self) { try CheckCommand.parse([body]) }
        #expect(CheckCommand.helpMessage().contains("--openapi"))
    }
}
