import ArgumentParser
import BadBackend
import Foundation
import Testing

@testable import BackstopCLI

/// What `rehearse`, `serve --openapi` and `proxy --openapi` say of a document they cannot use:
/// its text and its file's name escaped once, as `backstop report` escapes a server's text.
@Suite("Messages about a document")
struct DocumentMessageTests {
    /// A document whose title holds a control character, which the YAML parser refuses and
    /// quotes with its line, in a file whose name holds an escape.
    static func file() throws -> String {
        try TestDocuments.file("openapi: 3.1.0\ninfo: {title: \"a\u{1}b\", version: '1'}\npaths: {}\n", name: "odd\u{1B}name.yaml")
    }

    /// The parser's message as the commands show it: every control character as one escape.
    static let reason =
        #"odd\u{1B}name.yaml: is not a YAML OpenAPI document: 2:17: error: reader: control characters are not allowed:\u{A}info: {title: "a\u{1}b", version: '1'}\u{A} ^"#

    @Test("rehearse escapes the document's text and its name once")
    func rehearse() throws {
        let (message, exitCode) = try RehearseCommand.parse([try Self.file()]).report()
        #expect(exitCode == 2)
        #expect(message == Self.reason)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("serve --openapi and proxy --openapi escape the document's text and its name once")
    func serveAndProxy() throws {
        let file = try Self.file()
        let shownPath = file.replacingOccurrences(of: "\u{1B}", with: #"\u{1B}"#)
        let serve = try #require(try BackstopCommand.parseAsRoot(["serve", "--openapi", file]) as? ServeCommand)
        #expect(throws: InputFile.Unreadable.self) { try serve.servedDocument() }
        do {
            _ = try serve.servedDocument()
        } catch {
            #expect(error.description == "cannot read '\(shownPath)': \(Self.reason)")
        }
        let proxy = try #require(
            try BackstopCommand.parseAsRoot(["proxy", "--upstream", "http://127.0.0.1:1", "--openapi", file]) as? ProxyCommand)
        do {
            _ = try proxy.document(seed: 1)
            Issue.record("read")
        } catch {
            #expect(error.description == "cannot read '\(shownPath)': \(Self.reason)")
        }
    }
}
