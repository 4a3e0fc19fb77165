import ArgumentParser
import BackstopJSON
import BadBackend
import Foundation
import Logging
import ServiceLifecycle

/// `backstop serve`: runs BadBackend for simulators and other test suites until interrupted.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run BadBackend, an HTTP server that misbehaves on purpose, until stopped.",
        discussion: """
            Serves products, study groups and an account in envelope styles a, b and c: \
            clean at /<style>/<resource>, broken at /scenarios/<scenario>/<style>/<resource>. \
            GET /scenarios lists every resource, scenario and query item as JSON. Example:
              curl http://127.0.0.1:<port>/scenarios/http-503/b/products

            It binds 127.0.0.1 unless --host says otherwise; any other address is reachable \
            from other machines and prints a warning. --fault-rate gives requests that name no \
            scenario a random fault; the same --seed replays the same faults. Stop it with \
            Ctrl-C (SIGINT) or SIGTERM.

            RESOURCES
            \(Self.resources)

            SCENARIOS
            \(Self.scenarios)

            Query items: failures=N applies a scenario to the first N attempts only; \
            status=NNN sends a business code with that HTTP status; retryAfter=S sets \
            Retry-After on http-429 and http-503.

            YOUR OWN API
            --openapi FILE serves an app's own OpenAPI document (YAML or JSON, 3.0 or 3.1) in \
            place of these resources: every operation answers with its example, else a value \
            generated from its schema (--seed). Path and query parameters are checked (404, 405, \
            400). A request names a misbehaviour with the header Backstop-Scenario: <name> or the \
            prefix /scenarios/<name>/; --scenario gives every request one. Dirty data is made \
            where the schema says each value is. GET /scenarios lists the operations and what \
            changes each. Misbehaviours: \(BadBackend.ServedDocument.scenarioNames.joined(separator: ", ")).
              curl -H 'Backstop-Scenario: numbers-as-strings' http://127.0.0.1:<port>/pets/1

            AUTH AND TIMING
            Sign-in issues access tokens that live --token-lifetime seconds (300 by default): \
            to see an app refresh, try --token-lifetime 10. An expired token answers the \
            token-expired code (11001) in a 200, or in a 401 with --expired-token 401. \
            --refresh says what POST /<style>/auth/refresh does: succeeds, fails (401, sign in \
            again), slow (after the slow delay), unavailable (503) or rejected (400). \
            --slow-delay is how long the slow and burst scenarios (and a slow refresh) wait.
            """
    )

    private static let resources = """
        GET  /<style>/products, /<style>/products/<id>, /<style>/study-groups, /<style>/study-groups/<id>
        GET  /<style>/account (needs a bearer token from sign-in)
        POST /<style>/auth/sign-in, /<style>/auth/refresh {"refreshToken": "…"}
        """

    /// Every scenario name by group, from the catalogue itself so the help never falls behind.
    private static var scenarios: String {
        Scenario.Group.allCases.map { group in
            "\(group.rawValue): " + Scenario.all.filter { $0.group == group }.map(\.name).joined(separator: ", ")
        }.joined(separator: "\n")
    }

    @Option(help: "The address to bind; anything but loopback prints a warning.")
    var host = "127.0.0.1"

    @Option(help: "The port to bind; 0 picks a free one, which is printed.")
    var port = 0

    @Option(help: "The seed of random faults; printed, and random, when left out.")
    var seed: UInt64?

    @Option(
        name: [.customLong("fault-rate"), .customLong("random-faults")], help: "The share of requests, 0 to 1, that get a random fault.")
    var faultRate = 0.0

    @Option(help: "An app's OpenAPI document to serve in place of BadBackend's own resources.")
    var openapi: String?

    @Option(help: "With --openapi: the misbehaviour of every request that names none (see GET /scenarios).")
    var scenario: String?

    @Option(help: "With --openapi: the most bytes read from the document.")
    var maxBytes = InputFile.defaultLimit

    @Option(help: "Seconds an access token lives; try 10 to see an app refresh without waiting.")
    var tokenLifetime = 300

    @Option(help: "How an expired access token is answered: code (the token-expired code in a 200) or 401.")
    var expiredToken = ExpiredTokenAnswer.tokenExpiredCode.rawValue

    @Option(help: "What a refresh does: succeeds, fails, slow, unavailable or rejected.")
    var refresh = RefreshBehaviour.succeeds.rawValue

    @Option(help: "Seconds the slow and burst scenarios, and a slow refresh, wait before answering.")
    var slowDelay = 10.0

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard (0...1).contains(faultRate) else { throw ValidationError("--fault-rate must be 0 to 1") }
        guard tokenLifetime > 0 else { throw ValidationError("--token-lifetime must be at least 1 second") }
        guard ExpiredTokenAnswer(rawValue: expiredToken) != nil else {
            throw ValidationError("--expired-token must be " + ExpiredTokenAnswer.allCases.map(\.rawValue).joined(separator: " or "))
        }
        guard RefreshBehaviour(rawValue: refresh) != nil else {
            throw ValidationError("--refresh must be one of " + RefreshBehaviour.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard slowDelay >= 0, slowDelay <= 3600 else { throw ValidationError("--slow-delay must be 0 to 3600 seconds") }
        if let scenario {
            guard openapi != nil else { throw ValidationError("--scenario needs --openapi") }
            guard #available(macOS 14, iOS 17, tvOS 17, *) else { return }
            guard BadBackend.ServedDocument.scenarioNames.contains(scenario) else {
                throw ValidationError(
                    "--scenario must be one of " + BadBackend.ServedDocument.scenarioNames.joined(separator: ", "))
            }
        }
    }

    /// The server the options describe; `seed` is the random faults' seed when they are on.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func backendConfiguration(seed: UInt64, document: BadBackend.ServedDocument? = nil) -> BadBackend.Configuration {
        BadBackend.Configuration(
            host: host, port: port,
            randomFaults: faultRate > 0 ? RandomFaults(rate: faultRate, seed: seed) : nil,
            accessTokenLifetime: .seconds(tokenLifetime),
            expiredToken: ExpiredTokenAnswer(rawValue: expiredToken) ?? .tokenExpiredCode,
            refresh: RefreshBehaviour(rawValue: refresh) ?? .succeeds,
            slowAnswerDelay: .milliseconds(Int64((slowDelay * 1000).rounded())), document: document)
    }

    /// The `--openapi` document, read and made ready to serve; `nil` without `--openapi`.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func servedDocument() throws(InputFile.Unreadable) -> BadBackend.ServedDocument? {
        guard let openapi else { return nil }
        return try InputFile.servedDocument(at: openapi, limit: maxBytes, seed: seed ?? 0, scenario: scenario)
    }

    func run() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else {
            FileHandle.standardError.write(Data("backstop serve: BadBackend needs macOS 14 or later\n".utf8))
            throw ExitCode(2)
        }
        try await serve()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    private func serve() async throws {
        let document: BadBackend.ServedDocument?
        do {
            document = try servedDocument()
        } catch {
            FileHandle.standardError.write(Data("backstop serve: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let configuration = backendConfiguration(seed: seed ?? UInt64.random(in: 0...UInt64(UInt32.max)), document: document)
        let faults = configuration.randomFaults
        let backend = BadBackend(configuration: configuration)
        var quiet = Logger(label: "backstop.serve")
        quiet.logLevel = .critical
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [backend], gracefulShutdownSignals: [.sigterm, .sigint], logger: quiet))
        do {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                let url = try await backend.listening()
                var text =
                    document.map { Self.documentBanner($0, url: url) }
                        ?? """
                        BadBackend listening on \(url)
                          scenarios: \(url)/scenarios
                          try:       curl \(url)/scenarios/http-503/b/products
                          tokens:    access tokens live \(tokenLifetime) s (--token-lifetime); expired: \(expiredToken); refresh: \(refresh)
                          slow:      \(slowDelay.rounded() == slowDelay ? "\(Int(slowDelay))" : "\(slowDelay)") s (--slow-delay)

                        """
                if let faults { text += "  random faults: rate \(faults.rate), seed \(faults.seed) (--seed \(faults.seed) replays them)\n" }
                // Written unbuffered: a script reading the address through a pipe must see it now.
                FileHandle.standardOutput.write(Data((text + "Stop with Ctrl-C.\n").utf8))
                try await tasks.waitForAll()
            }
        } catch {
            FileHandle.standardError.write(Data("backstop serve: cannot serve on \(host):\(port): \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// What `serve --openapi` prints: the document, its operations, and how to name a misbehaviour.
    @available(macOS 14, iOS 17, tvOS 17, *)
    private static func documentBanner(_ document: BadBackend.ServedDocument, url: URL) -> String {
        let operations = document.operations
        var text = "BadBackend serving \(operations.count) operation\(operations.count == 1 ? "" : "s") on \(url)\n"
        for operation in operations.prefix(10) { text += "  \(UntrustedText.escaped(operation))\n" }
        if operations.count > 10 { text += "  … and \(operations.count - 10) more (GET \(url)/scenarios)\n" }
        text += """
              scenarios: \(url)/scenarios
              try:       curl -H 'Backstop-Scenario: numbers-as-strings' \(url)<path>
            """
        if let scenario = document.scenario { text += "\n  every request: \(scenario) (--scenario)" }
        return text + "\n"
    }
}
