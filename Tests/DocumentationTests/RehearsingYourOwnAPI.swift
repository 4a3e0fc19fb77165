import ArgumentParser
import BackstopJSON
import BadBackend
import Foundation
import Testing

@testable import BackstopCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The commands and code of the DocC article "Rehearsing Your Own API", run in-process against
// the document it names, Tests/Documents/shop.yaml, with the output it shows.

/// The article, its commands as written there, and what runs them.
enum RehearsingYourOwnAPI {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let article = repository.appendingPathComponent("Sources/BadBackend/BadBackend.docc/RehearsingYourOwnAPI.md")
    static let shopYAML = repository.appendingPathComponent("Tests/Documents/shop.yaml")

    static let serve = "swift run backstop serve --openapi Tests/Documents/shop.yaml --port 8080"
    static let serveCurls = [
        "curl http://127.0.0.1:8080/products/17",
        "curl -H 'Backstop-Scenario: numbers-as-strings' http://127.0.0.1:8080/products/17",
        "curl http://127.0.0.1:8080/scenarios/numbers-as-strings/products/17",
        "curl http://127.0.0.1:8080/scenarios",
    ]
    static let serveScenario = "swift run backstop serve --openapi Tests/Documents/shop.yaml --scenario unknown-enum-values"
    static let serveRandomFaults = "swift run backstop serve --openapi Tests/Documents/shop.yaml --random-faults 0.2 --seed 7"
    static let proxy =
        "swift run backstop proxy --upstream https://staging.example.com --openapi Tests/Documents/shop.yaml --port 8081"
    static let proxyCurls = [
        "curl -H 'Backstop-Scenario: unknown-enum-values' http://127.0.0.1:8081/products/17",
        "curl -H 'Backstop-Scenario: http-5xx; ratio=1; status=503; retryAfter=2' http://127.0.0.1:8081/products/17",
    ]
    static let rehearse = "swift run backstop rehearse Tests/Documents/shop.yaml --operation getProduct"
    static let rehearseInCI = #"swift run backstop rehearse Tests/Documents/shop.yaml --markdown >> "$GITHUB_STEP_SUMMARY""#

    static var commands: [String] {
        [serve] + serveCurls + [serveScenario, serveRandomFaults, proxy] + proxyCurls + [rehearse, rehearseInCI]
    }

    static func text() throws -> String { try String(contentsOf: article, encoding: .utf8) }

    /// The arguments after `swift run backstop`, up to a redirection, with the document's path
    /// made absolute: the tests run from anywhere.
    static func arguments(_ line: String) -> [String] {
        line.split(separator: " ").dropFirst(3).prefix { $0 != ">>" }.map { $0 == "Tests/Documents/shop.yaml" ? shopYAML.path : String($0) }
    }

    /// The lines of the unlabelled fenced block after the block that holds `line`: the output the article shows for it.
    static func output(after line: String) throws -> [String] {
        let lines = try text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: line))
        let end = try #require(lines[start...].firstIndex(of: "```"))
        let opening = try #require(lines[(end + 1)...].firstIndex(of: "```"))
        let closing = try #require(lines[(opening + 1)...].firstIndex(of: "```"))
        return Array(lines[(opening + 1)..<closing])
    }

    /// What `curl` gets for `line` against `base` in place of the article's address: its
    /// status, headers and body.
    static func curl(_ line: String, base: URL) async throws -> (status: Int, headers: [String: String], body: String) {
        let words = line.split(separator: " ")
        let address = try #require(words.last).replacingOccurrences(of: "http://127.0.0.1:8080", with: base.absoluteString)
            .replacingOccurrences(of: "http://127.0.0.1:8081", with: base.absoluteString)
        var request = URLRequest(url: try #require(URL(string: address)))
        if let header = line.split(separator: "'").dropFirst().first {
            let parts = header.split(separator: ":", maxSplits: 1)
            request.setValue(String(parts[1].dropFirst()), forHTTPHeaderField: String(parts[0]))
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields { headers[name.lowercased()] = value }
        return (http.statusCode, headers, String(decoding: data, as: UTF8.self))
    }
}

/// The product of shop.yaml, as an app decodes it.
struct ShopProduct: Decodable {
    let id: Int
    let name: String
    let price: Double
    let stock: Int
}

@Test("the article shows no command these tests do not run")
func rehearsingYourOwnAPIRunsEveryCommand() throws {
    let shown = try RehearsingYourOwnAPI.text().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        .map { $0.hasPrefix("run: ") ? String($0.dropFirst(5)) : $0 }
        .filter { $0.hasPrefix("swift run backstop") || $0.hasPrefix("curl ") }
    #expect(shown == RehearsingYourOwnAPI.commands)
}

@available(macOS 14, iOS 17, tvOS 17, *)
@Test("backstop serve --openapi: the example, dirty by header and by path prefix, and GET /scenarios")
func rehearsingYourOwnAPIServe() async throws {
    let command = try #require(try BackstopCommand.parseAsRoot(RehearsingYourOwnAPI.arguments(RehearsingYourOwnAPI.serve)) as? ServeCommand)
    #expect(command.port == 8080)
    var onAnyPort = command
    onAnyPort.port = 0
    let document = try #require(try onAnyPort.servedDocument())
    let expected = try RehearsingYourOwnAPI.output(after: RehearsingYourOwnAPI.serveCurls[3])
    try await BadBackend(configuration: onAnyPort.backendConfiguration(seed: 0, document: document)).withRunning { base in
        let curls = RehearsingYourOwnAPI.serveCurls
        let clean = try await RehearsingYourOwnAPI.curl(curls[0], base: base)
        #expect([clean.body] == expected.prefix(1))
        let byHeader = try await RehearsingYourOwnAPI.curl(curls[1], base: base)
        #expect([byHeader.body] == expected.suffix(1))
        #expect(byHeader.headers["backstop-scenario-applied"] == "numbers-as-strings")
        let byPrefix = try await RehearsingYourOwnAPI.curl(curls[2], base: base)
        #expect([byPrefix.body] == expected.suffix(1))
        let scenarios = try await RehearsingYourOwnAPI.curl(curls[3], base: base)
        #expect(scenarios.status == 200)
        for name in ["numbers-as-strings", "unknown-enum-values", "trickle", "http-503", "http-429", "token-expired"] {
            #expect(scenarios.body.contains(#""\#(name)""#), "\(name)")
        }
    }
    // The misbehaviours the article names, by the names the server takes.
    let named = [
        "numbers-as-strings", "nulls-and-missing-fields", "unknown-enum-values", "broken-array-element", "odd-dates", "byte-order-mark",
        "trailing-commas", "latin-1", "nan", "trickle", "http-503", "http-429", "token-expired",
    ]
    #expect(Set(named).isSubset(of: BadBackend.ServedDocument.scenarioNames))
}

@available(macOS 14, iOS 17, tvOS 17, *)
@Test("backstop serve --openapi with --scenario, and with --random-faults and --seed")
func rehearsingYourOwnAPIServeOptions() async throws {
    var everyRequest = try #require(
        try BackstopCommand.parseAsRoot(RehearsingYourOwnAPI.arguments(RehearsingYourOwnAPI.serveScenario)) as? ServeCommand)
    everyRequest.port = 0
    let document = try #require(try everyRequest.servedDocument())
    #expect(document.scenario == "unknown-enum-values")
    try await BadBackend(configuration: everyRequest.backendConfiguration(seed: 0, document: document)).withRunning { base in
        let product = try await RehearsingYourOwnAPI.curl(RehearsingYourOwnAPI.serveCurls[0], base: base)
        #expect(product.headers["backstop-scenario-applied"] == "unknown-enum-values")
        #expect(!product.body.contains(#""category":"drink""#))
    }
    let faulty = try #require(
        try BackstopCommand.parseAsRoot(RehearsingYourOwnAPI.arguments(RehearsingYourOwnAPI.serveRandomFaults)) as? ServeCommand)
    let faults = faulty.backendConfiguration(seed: try #require(faulty.seed)).randomFaults
    #expect(faults?.rate == 0.2)
    #expect(faults?.seed == 7)
}

@available(macOS 14, iOS 17, tvOS 17, *)
@Test("backstop proxy --upstream --openapi: schema dirt on the upstream's answer, and a 503 not forwarded")
func rehearsingYourOwnAPIProxy() async throws {
    var command = try #require(try BackstopCommand.parseAsRoot(RehearsingYourOwnAPI.arguments(RehearsingYourOwnAPI.proxy)) as? ProxyCommand)
    #expect(command.upstream == "https://staging.example.com")
    #expect(command.port == 8081)
    // The upstream: shop.yaml served clean on loopback, in place of a staging backend.
    let upstream = BadBackend(
        configuration: .init(document: try BadBackend.ServedDocument(data: Data(contentsOf: RehearsingYourOwnAPI.shopYAML))))
    try await upstream.withRunning { upstreamURL in
        command.upstream = upstreamURL.absoluteString
        command.port = 0
        let configuration = try command.proxyConfiguration(seed: 0, document: try command.document(seed: 0))
        try await BackstopProxy(configuration: configuration).withRunning { base in
            let enums = try await RehearsingYourOwnAPI.curl(RehearsingYourOwnAPI.proxyCurls[0], base: base)
            #expect(enums.status == 200)
            #expect(enums.headers["backstop-scenario-applied"] == "unknown-enum-values in GET /products/{productId}")
            #expect(enums.body.contains(#""id":17"#))
            #expect(!enums.body.contains(#""category":"drink""#))
            let before = await upstream.requestLog.entries.count
            let unavailable = try await RehearsingYourOwnAPI.curl(RehearsingYourOwnAPI.proxyCurls[1], base: base)
            #expect(unavailable.status == 503)
            #expect(unavailable.headers["retry-after"] == "2")
            #expect(await upstream.requestLog.entries.count == before)
        }
    }
}

@Test("backstop rehearse: the table the article shows, --markdown, --json, and the exit status CI stops on")
func rehearsingYourOwnAPIRehearse() throws {
    func rehearse(_ arguments: [String]) throws -> (text: String, exitCode: Int32) {
        try #require(try BackstopCommand.parseAsRoot(arguments) as? RehearseCommand).report()
    }
    let table = try rehearse(RehearsingYourOwnAPI.arguments(RehearsingYourOwnAPI.rehearse))
    #expect(
        table.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            == (try RehearsingYourOwnAPI.output(after: RehearsingYourOwnAPI.rehearse)))
    #expect(table.exitCode == 1)
    let inCI = try rehearse(RehearsingYourOwnAPI.arguments(RehearsingYourOwnAPI.rehearseInCI))
    #expect(inCI.text.hasPrefix("| operation | misbehaviour | outcome | detail |\n|---|---|---|---|\n"))
    #expect(inCI.exitCode == 1)
    let json = try rehearse(RehearsingYourOwnAPI.arguments(RehearsingYourOwnAPI.rehearse) + ["--json"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
    #expect((document["results"] as? [Any])?.count == 10)
    #expect(document["failed"] as? Int == 1)
    let unreadable = try rehearse(["rehearse", "/nonexistent/app.yaml"])
    #expect(unreadable.exitCode == 2)
}

@available(macOS 14, iOS 17, tvOS 17, *)
@Test("a test names the misbehaviour per request, and the app's decoder repairs it")
func rehearsingYourOwnAPIInATest() async throws {
    let shopYAML = RehearsingYourOwnAPI.shopYAML
    let shop = try BadBackend.ServedDocument(data: Data(contentsOf: shopYAML), source: "shop.yaml")
    let backend = BadBackend(configuration: .init(document: shop))
    try await backend.withRunning { baseURL in
        var request = URLRequest(url: baseURL.appendingPathComponent("products/17"))
        request.setValue("numbers-as-strings", forHTTPHeaderField: "Backstop-Scenario")
        let (body, _) = try await URLSession.shared.data(for: request)
        let report = try ResilientJSONDecoder().decodeWithReport(ShopProduct.self, from: body)
        #expect(report.value.id == 17)
        #expect(report.repairs.map(\.path) == ["$.id", "$.price", "$.stock"])
    }
}
