import BackstopTestSupport
import BadBackend
import Foundation
import Testing

@testable import BackstopCLI

/// BackstopProxy with the app's OpenAPI document: dirt made where the schema of the request's
/// operation says, in front of a BadBackend that its own document describes.
@Suite("BackstopProxy with a document", .timeLimit(.minutes(1)))
struct ProxyDocumentTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func document() throws -> BadBackend.ServedDocument {
        try BadBackend.ServedDocument(data: BadBackend.openAPIDocument, source: "openapi.yaml", seed: 1)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Schema dirt changes the real answer where the operation's schema says, and says so")
    func schemaDirt() async throws {
        let document = try Self.document()
        try await withBackend { _, upstream in
            try await withProxy(upstream: upstream, { $0.document = document }) { _, url in
                let clean = try await ProxyHTTP.fetch(url, "/b/products/1")
                #expect(clean.value(at: "data.id") as? Int == 1)
                #expect(clean.header("Backstop-Scenario-Applied") == nil)

                let strings = try await ProxyHTTP.fetch(url, "/b/products/1", headers: [("Backstop-Scenario", "numbers-as-strings")])
                #expect(strings.status == 200)
                #expect(strings.value(at: "data.id") as? String == "1")
                #expect(strings.value(at: "data.price") as? String == "999.5")
                #expect(strings.value(at: "data.name") as? String == "iPhone 17")
                #expect(strings.header("Backstop-Scenario-Applied") == "numbers-as-strings in GET /b/products/{id}")

                let enums = try await ProxyHTTP.fetch(url, "/b/products/1", headers: [("Backstop-Scenario", "unknown-enum-values")])
                #expect(enums.header("Backstop-Scenario-Applied") == "unknown-enum-values in GET /b/products/{id}")
                #expect(enums.value(at: "data.category") as? String != "phone")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An operation the document lacks passes clean, or with its byte dirt made in the bytes, and says why")
    func unknownOperation() async throws {
        let document = try Self.document()
        try await withBackend { _, upstream in
            try await withProxy(upstream: upstream, { $0.document = document }) { _, url in
                let clean = try await ProxyHTTP.fetch(url, "/b/echo")
                let schema = try await ProxyHTTP.fetch(url, "/b/echo", headers: [("Backstop-Scenario", "numbers-as-strings")])
                #expect(schema.value(at: "data.method") as? String == "GET")
                #expect(schema.header("Backstop-Scenario-Applied") == "none: the document has no operation GET /b/echo")

                let commas = try await ProxyHTTP.fetch(url, "/b/echo", headers: [("Backstop-Scenario", "trailing-commas")])
                #expect(
                    commas.header("Backstop-Scenario-Applied")
                        == "trailing-commas in the bytes: the document has no operation GET /b/echo")
                #expect(commas.text.contains(",}"))
                #expect(commas.body.count > clean.body.count)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A code goes in the real answer's code field; an expired token only where security is declared, as serve makes them")
    func codesAndTokens() async throws {
        let bank = try TestDocuments.served("bank.json")
        try await TestDocuments.serving(bank) { upstream, _ in
            try await withProxy(upstream: upstream, { $0.document = bank }) { _, url in
                let clean = try await ProxyHTTP.fetch(url, "/accounts")
                let maintenance = try await ProxyHTTP.fetch(url, "/accounts", headers: [("Backstop-Scenario", "maintenance")])
                #expect(maintenance.status == 200)
                #expect(maintenance.value(at: "code") as? Int == BadBackend.GeneralCode.maintenance.rawValue)
                #expect(maintenance.value(at: "message") as? String == "Down for maintenance")
                #expect(maintenance.header("Backstop-Scenario-Applied") == "maintenance in GET /accounts")
                // The rest of the answer is the upstream's own.
                let data = try #require(clean.value(at: "data") as? [Any])
                #expect((maintenance.value(at: "data") as? [Any])?.count == data.count)

                let expired = try await ProxyHTTP.fetch(url, "/accounts", headers: [("Backstop-Scenario", "token-expired")])
                #expect(expired.status == 200)
                #expect(expired.value(at: "code") as? Int == BadBackend.GeneralCode.tokenExpired.rawValue)
                #expect(expired.value(at: "message") as? String == "Token expired")

                let unknown = try await ProxyHTTP.fetch(url, "/accounts", headers: [("Backstop-Scenario", "unknown-code")])
                #expect(unknown.value(at: "code") as? Int == Scenario.unknownBusinessCode)

                // The rates need no credentials: nothing to expire.
                let rates = try await ProxyHTTP.fetch(url, "/rates", headers: [("Backstop-Scenario", "token-expired")])
                #expect(rates.status == 200)
                #expect(rates.value(at: "base") as? String == "EUR")
                #expect(rates.header("Backstop-Scenario-Applied") == "none: token-expired finds nothing to change in GET /rates")
            }
        }
        let shop = try TestDocuments.served("shop.yaml")
        try await TestDocuments.serving(shop) { upstream, backend in
            try await withProxy(upstream: upstream, { $0.document = shop }) { _, url in
                // No code in the shop's answers: a 401 with the document's own body for it, not forwarded.
                let expired = try await ProxyHTTP.fetch(url, "/basket", headers: [("Backstop-Scenario", "token-expired")])
                #expect(expired.status == 401)
                #expect(expired.value(at: "title") is String)
                #expect(expired.header("WWW-Authenticate")?.hasPrefix(#"Bearer error="invalid_token""#) == true)
                #expect(expired.header("Backstop-Scenario-Applied") == "token-expired in GET /basket")
                #expect(await backend.requestLog.entries.isEmpty)
                let maintenance = try await ProxyHTTP.fetch(url, "/basket", headers: [("Backstop-Scenario", "maintenance")])
                #expect(maintenance.status == 200)
                #expect(maintenance.header("Backstop-Scenario-Applied") == "none: maintenance finds nothing to change in GET /basket")
                #expect(await backend.requestLog.entries.map(\.path) == ["/basket"])
            }
        }
        try await withBackend { backend, upstream in
            try await withProxy(upstream: upstream) { _, url in
                let answer = try await ProxyHTTP.fetch(url, "/b/products/1", headers: [("Backstop-Scenario", "maintenance")])
                #expect(answer.status == 400)
                #expect(
                    answer.value(at: "error") as? String
                        == "backstop proxy: Backstop-Scenario: maintenance is made from the app's OpenAPI document, and this proxy has none (--openapi)"
                )
                #expect(await backend.requestLog.entries.isEmpty)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Schema dirt without a document is a 400 that says it needs one, and is not forwarded")
    func schemaDirtNeedsADocument() async throws {
        try await withBackend { backend, upstream in
            try await withProxy(upstream: upstream) { _, url in
                let answer = try await ProxyHTTP.fetch(url, "/b/products/1", headers: [("Backstop-Scenario", "odd-dates")])
                #expect(answer.status == 400)
                #expect(
                    answer.value(at: "error") as? String
                        == "backstop proxy: Backstop-Scenario: odd-dates is made from the app's OpenAPI document, and this proxy has none (--openapi)"
                )
                #expect(await backend.requestLog.entries.isEmpty)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("backstop proxy --openapi reads the document; a schema dirt --scenario without it is refused")
    func openAPIOption() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-\(UUID().uuidString).yaml")
        try BadBackend.openAPIDocument.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let command = try #require(
            try BackstopCommand.parseAsRoot([
                "proxy", "--upstream", "http://127.0.0.1:1", "--openapi", file.path, "--scenario", "odd-dates",
            ])
                as? ProxyCommand)
        let document = try #require(try command.document(seed: 1))
        #expect(document.operations.contains("GET /b/products/{id}"))
        let configuration = try command.proxyConfiguration(seed: 1, document: document)
        #expect(configuration.scenario == .schemaDirt("odd-dates"))
        #expect(configuration.document != nil)

        do {
            _ = try BackstopCommand.parseAsRoot(["proxy", "--upstream", "http://127.0.0.1:1", "--scenario", "odd-dates"])
            Issue.record("parsed without --openapi")
        } catch {
            #expect(
                BackstopCommand.message(for: error)
                    == "--scenario odd-dates is made from the app's OpenAPI document: give it with --openapi")
        }
        do {
            _ = try BackstopCommand.parseAsRoot(["proxy", "--upstream", "http://127.0.0.1:1", "--scenario", "token-expired"])
            Issue.record("parsed without --openapi")
        } catch {
            #expect(
                BackstopCommand.message(for: error)
                    == "--scenario token-expired is made from the app's OpenAPI document: give it with --openapi")
        }
        let coded = try #require(
            try BackstopCommand.parseAsRoot([
                "proxy", "--upstream", "http://127.0.0.1:1", "--openapi", file.path, "--scenario", "maintenance",
            ])
                as? ProxyCommand)
        #expect(try coded.proxyConfiguration(seed: 1).scenario == .code("maintenance"))
    }
}
