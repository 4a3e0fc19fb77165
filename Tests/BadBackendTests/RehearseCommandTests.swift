import ArgumentParser
import Foundation
import Testing

@testable import BackstopCLI

/// `backstop rehearse FILE`: every operation and misbehaviour through the document's contract.
@Suite("backstop rehearse")
struct RehearseCommandTests {
    static func report(_ arguments: [String]) throws -> (text: String, exitCode: Int32) {
        try RehearseCommand.parse(arguments).report()
    }

    @Test("A row per operation and misbehaviour: survived with its repairs, failed with the path, n/a")
    func table() throws {
        let (text, exitCode) = try Self.report([TestDocuments.path("shop.yaml"), "--operation", "getProduct"])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "operation   misbehaviour              outcome   detail")
        #expect(lines[1] == "getProduct  clean                     survived  no repairs")
        #expect(
            lines[2].hasPrefix(
                #"getProduct  numbers-as-strings        survived  3 repairs: $.id: expected integer, found string "17"; coerced; "#))
        #expect(lines[4].hasPrefix(#"getProduct  unknown-enum-values       survived  1 repair: $.category: expected Category"#))
        // NaN where a required number is declared is no value: the call fails, and says where.
        #expect(lines[10] == "getProduct  nan                       FAILED    $.price invalidValue: expected number, found number NaN")
        #expect(lines.count == 1 + 10 + 2)
        #expect(lines.last == "1 operation: 9 survived, 1 failed, 0 not applicable or undescribed")
        #expect(exitCode == 1)
    }

    @Test("A client that survives everything exits 0; what does not apply is n/a")
    func survives() throws {
        let (text, exitCode) = try Self.report([TestDocuments.path("bank.json"), "--operation", "listAccounts"])
        #expect(exitCode == 0)
        #expect(text.contains("listAccounts  odd-dates                 n/a       nothing to change"))
        #expect(text.hasSuffix("1 operation: 9 survived, 0 failed, 1 not applicable or undescribed"))
    }

    @Test("An enum with no fallback in a required field fails, by its JSON path, and the exit status says so")
    func failure() throws {
        let (text, exitCode) = try Self.report([TestDocuments.path("shop.yaml"), "--operation", "GET /basket"])
        #expect(exitCode == 1)
        #expect(
            text.contains(
                #"getBasket  unknown-enum-values       FAILED    $.currency invalidValue: "backstop-unknown-value" is not a value of enum"#)
        )
        #expect(!text.contains("getProduct"))
    }

    @Test("Markdown and JSON carry the same rows")
    func formats() throws {
        let markdown = try Self.report([TestDocuments.path("bank.json"), "--operation", "exchangeRates", "--markdown"])
        #expect(
            markdown.text.hasPrefix(
                "| operation | misbehaviour | outcome | detail |\n|---|---|---|---|\n| exchangeRates | clean | survived | no repairs |"))
        #expect(
            markdown.text.contains(
                #"| exchangeRates | nulls-and-missing-fields | FAILED | \$.at null: expected string, which has no default |"#))
        let json = try Self.report([TestDocuments.path("bank.json"), "--operation", "exchangeRates", "--json"])
        #expect(json.exitCode == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        #expect(document["operations"] as? Int == 1)
        #expect(document["failed"] as? Int == 1)
        let results = try #require(document["results"] as? [[String: Any]])
        #expect(results.count == 10)
        let failed = try #require(results.first { $0["outcome"] as? String == "failed" })
        #expect(failed["misbehaviour"] as? String == "nulls-and-missing-fields")
        #expect((failed["failure"] as? [String: Any])?["path"] as? String == "$.at")
        #expect((failed["failure"] as? [String: Any])?["problem"] as? String == "null")
    }

    @Test("Text from the document is escaped in every format: no terminal escapes, no Markdown")
    func hostileText() throws {
        let file = try TestDocuments.file(
            """
            openapi: 3.1.0
            info: {title: Hostile, version: "1"}
            paths:
              /x:
                get:
                  operationId: "get\\e[2J|<img src=x onerror=alert(1)>"
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema: {type: object, required: [n], properties: {n: {type: integer}}}
            """)
        for format in [[], ["--markdown"], ["--json"]] {
            let (text, _) = try Self.report([file] + format)
            #expect(!text.contains("\u{1B}"), "\(format)")
            if format == ["--markdown"] {
                #expect(text.contains(#"get\\u{1B}\[2J\|\<img src=x onerror=alert(1)\>"#))
            }
        }
    }

    @Test(
        "A document it cannot use is one line naming where, exit status 2",
        arguments: [
            ("not: [openapi", "is not a YAML OpenAPI document"),
            (
                "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /x:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Gone'}\n",
                "get/x 200: the response's $ref names no component"
            ),
        ])
    func unusable(text: String, reason: String) throws {
        let file = try TestDocuments.file(text)
        let (message, exitCode) = try Self.report([file])
        #expect(exitCode == 2)
        #expect(message.contains(reason), "\(message)")
        #expect(!message.contains("\n"))
        let missing = try Self.report(["/nonexistent/app.yaml"])
        #expect(missing == ("cannot read '/nonexistent/app.yaml': no such file", 2))
        let unknown = try Self.report([TestDocuments.path("shop.yaml"), "--operation", "getNothing"])
        #expect(unknown == ("the document has no operation 'getNothing'", 2))
    }

    @Test("All 300 operations of the generated document are rehearsed")
    func largeDocument() throws {
        let (text, _) = try Self.report([TestDocuments.path("large.yaml"), "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["operations"] as? Int == 300)
        #expect((document["results"] as? [Any])?.count == 3_000)
    }
}
