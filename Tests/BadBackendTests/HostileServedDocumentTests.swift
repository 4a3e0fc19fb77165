import BackstopOpenAPI
import BadBackend
import Foundation
import Testing

@testable import BackstopCLI

/// Documents made to hang or crash whoever reads them: `serve --openapi` and `rehearse` refuse
/// each with one line naming why, at once (timed by hand: see the note on issue 51), never a crash.
@Suite("Hostile documents for serve and rehearse")
struct HostileServedDocumentTests {
    static let aliasBomb: String = {
        var lines = [
            "openapi: 3.1.0", "info: {title: Bomb, version: '1'}", "paths: {}", "x-laughs:",
            "  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]",
        ]
        for level in 1..<9 {
            lines.append("  l\(level): &l\(level) [\(Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", "))]")
        }
        return lines.joined(separator: "\n")
    }()

    static let cycle = """
        openapi: 3.1.0
        info: {title: Cycle, version: '1'}
        paths:
          /a:
            get:
              operationId: getA
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/A'}
        components:
          schemas:
            A: {$ref: '#/components/schemas/B'}
            B: {allOf: [{$ref: '#/components/schemas/A'}]}
        """

    /// A JSON document whose one schema is nested `levels` deep.
    static func deep(_ levels: Int) -> String {
        let open = String(repeating: #"{"type":"object","properties":{"a":"#, count: levels)
        let close = String(repeating: "}}", count: levels)
        let schema = open + #"{"type":"string"}"# + close
        return """
            {"openapi":"3.1.0","info":{"title":"Deep","version":"1"},"paths":{"/d":{"get":{"operationId":"getD","responses":{"200":\
            {"description":"ok","content":{"application/json":{"schema":\(schema)}}}}}}}}
            """
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "An alias bomb, a $ref cycle and 10,000 levels of nesting are refused with the problem named",
        arguments: [
            (aliasBomb, OpenAPIContractError.Problem.tooLarge, "aliases would add"),
            (cycle, .invalidSchema, "is its own value through"),
            (deep(10_000), .tooLarge, "levels deep; a document may nest at most 400"),
            (
                "openapi: 3.1.0\ninfo: {title: D, version: '1'}\npaths: {}\nx-deep: " + String(repeating: "[", count: 10_000)
                    + String(repeating: "]", count: 10_000),
                .notOpenAPI, "Maximum nesting level reached"
            ),
        ])
    func refused(text: String, problem: OpenAPIContractError.Problem, detail: String) throws {
        #expect {
            try BadBackend.ServedDocument(data: Data(text.utf8), source: "hostile.yaml")
        } throws: { error in
            guard let error = error as? OpenAPIContractError else { return false }
            return error.problem == problem && error.detail.contains(detail)
        }
        let file = try TestDocuments.file(text)
        let (message, exitCode) = try RehearseCommand.parse([file]).report()
        #expect(exitCode == 2)
        #expect(message.contains(detail))
        #expect(!message.contains("\n") && message.count < 600, "one line: \(message.prefix(700))")
        let serve = try BackstopCommand.parseAsRoot(["serve", "--openapi", file]) as? ServeCommand
        #expect(throws: InputFile.Unreadable.self) { try serve?.servedDocument() }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A schema nested 100 levels, as real documents never are, still loads and answers a bounded value")
    func deepButFine() throws {
        let served = try BadBackend.ServedDocument(data: Data(Self.deep(100).utf8))
        #expect(served.operations == ["GET /d"])
    }
}
