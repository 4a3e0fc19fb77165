import ArgumentParser
import BadBackend
import Foundation
import Testing

@testable import BackstopCLI

/// `backstop serve --openapi FILE`: the document it serves, and the options that go with it.
@Suite("backstop serve --openapi", .timeLimit(.minutes(1)))
struct ServeOpenAPICommandTests {
    static func parse(_ arguments: [String]) throws -> ServeCommand {
        try #require(try BackstopCommand.parseAsRoot(["serve"] + arguments) as? ServeCommand)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("--openapi serves the document, --scenario misbehaves every request, --random-faults sets the rate")
    func options() async throws {
        let command = try Self.parse([
            "--openapi", TestDocuments.path("shop.yaml"), "--scenario", "numbers-as-strings", "--random-faults", "0.5", "--seed", "9",
        ])
        let document = try #require(try command.servedDocument())
        #expect(document.operations.first == "GET /products")
        #expect(document.operations.count == 7)
        #expect(document.scenario == "numbers-as-strings")
        var configuration = command.backendConfiguration(seed: 9, document: document)
        #expect(configuration.randomFaults?.rate == 0.5)
        configuration.randomFaults = nil
        try await TestDocuments.serving(document, configuration: configuration) { base, _ in
            let product = try await HTTP.fetch(base, "/products/17")
            #expect(product.value(at: "id") as? String == "17")
        }
        #expect(try Self.parse([]).servedDocument() == nil)
    }

    @Test(
        "A scenario it does not have, or one without a document, is refused",
        arguments: [
            (["--scenario", "numbers-as-strings"], "--scenario needs --openapi"),
            (["--openapi", "app.yaml", "--scenario", "sometimes"], "--scenario must be one of numbers-as-strings,"),
        ])
    func refused(arguments: [String], message: String) {
        do {
            _ = try BackstopCommand.parseAsRoot(["serve"] + arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(BackstopCommand.message(for: error).hasPrefix(message))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A document it cannot read is one line naming the file and why")
    func unreadable() throws {
        let file = try TestDocuments.file(
            "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /x: {get: {responses: {'200': {$ref: '#/nowhere'}}}}\n")
        do {
            _ = try Self.parse(["--openapi", file]).servedDocument()
            Issue.record("read")
        } catch let error as InputFile.Unreadable {
            #expect(error.description.hasPrefix("cannot read '\(file)': "))
            #expect(error.description.contains("get/x 200"))
        } catch {
            Issue.record("\(error)")
        }
        #expect(throws: InputFile.Unreadable.self) { try Self.parse(["--openapi", "/nonexistent.yaml"]).servedDocument() }
    }
}
