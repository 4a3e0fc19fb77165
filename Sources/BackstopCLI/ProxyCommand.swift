import ArgumentParser
import BackstopJSON
import BadBackend
import Foundation
import Logging
import ServiceLifecycle

/// `backstop proxy`: runs BackstopProxy in front of a real backend until interrupted.
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Forward to a real backend, misbehaving on purpose, until stopped.",
        discussion: """
            Listens on 127.0.0.1 and forwards each request to --upstream with its method, path, \
            query, headers and body (Host set to the upstream's; hop-by-hop headers and \
            Backstop-Scenario left out), over AsyncHTTPClient with certificates verified. \
            Redirects come back to the client. An upstream that fails or does not answer within \
            --upstream-timeout is a 502 whose JSON body says why; a request body over \
            --max-request-bytes is a 413, an answer over --max-response-bytes a 502.

            With --openapi FILE (the app's OpenAPI document, YAML or JSON, 3.0 or 3.1), dirt is \
            made where the schema of the request's operation says each value is, and \
            numbers-as-strings, nulls-and-missing-fields, unknown-enum-values, \
            broken-array-element and odd-dates join the scenarios, and so do the codes \
            serve --openapi places: sign-in-required, maintenance, rate-limited, unknown-code and \
            hostile-message in the code field the document declares for the operation's answer, \
            and token-expired on operations that declare security (the token-expired code there, \
            else a 401, not forwarded). The answer's Backstop-Scenario-Applied header says what \
            was changed, or why nothing was.

            A request picks its misbehaviour with the header Backstop-Scenario: NAME[; key=value…] \
            (Backstop-Scenario: none for a clean answer); --scenario sets one for requests that \
            name none, and --fault-rate (or --random-faults) gives them a random fault from byte-order-mark, trailing-commas, \
            latin-1, nan, reset and http-5xx (the same --seed replays the same faults). Example:
              curl -H 'Backstop-Scenario: latency; ms=800; jitter=200' http://127.0.0.1:<port>/v1/orders

            SCENARIOS
            \(Self.scenarios)

            The log, on standard error, has one line a request (--verbose adds its headers), \
            with Authorization, cookies, API-key headers and secret query items redacted. \
            Stop it with Ctrl-C (SIGINT) or SIGTERM.
            """
    )

    private static let scenarios = """
        byte-order-mark, trailing-commas, latin-1, nan
                                             that dirt in a JSON answer's bytes
        numbers-as-strings, nulls-and-missing-fields, unknown-enum-values, broken-array-element, odd-dates
                                             with --openapi: that dirt where the operation's schema says
        sign-in-required, maintenance, rate-limited, unknown-code, hostile-message
                                             with --openapi: that code in the answer's code field
        token-expired                        with --openapi, where security is declared: its code, or a 401
        latency; ms=1000; jitter=0           the answer no sooner than ms ± jitter after the request
        bandwidth; rate=10                   the answer trickled at rate KB/s
        reset; after=0                       forwarded, then the connection reset after that many body bytes
        timeout; ms=0                        not forwarded; the connection closed after ms (0: held until stopped)
        slow-close; ms=1000                  the whole answer, its end held back ms
        http-5xx; ratio=1; status=503; retryAfter=S
                                             that share of requests gets the status, not forwarded
        """

    @Option(help: "The backend to forward to: an http or https URL, with an optional path prefix.")
    var upstream: String

    @Option(help: "The port to bind; 0 picks a free one, which is printed.")
    var port = 0

    @Option(help: "The app's OpenAPI document (YAML or JSON, 3.0 or 3.1): dirt made where its schemas say.")
    var openapi: String?

    @Option(help: "With --openapi: the most bytes read from the document.")
    var maxBytes = InputFile.defaultLimit

    @Option(help: "The scenario for requests without a Backstop-Scenario header, such as 'latency; ms=500'.")
    var scenario: String?

    @Option(
        name: [.customLong("fault-rate"), .customLong("random-faults")],
        help: "The share of requests, 0 to 1, that name no scenario and get a random fault.")
    var faultRate = 0.0

    @Option(help: "The seed of random faults and of what scenarios draw; printed, and random, when left out.")
    var seed: UInt64?

    @Option(help: "Seconds the upstream has to answer before the client gets a 502.")
    var upstreamTimeout = 30.0

    @Option(help: "The largest request body forwarded, in bytes.")
    var maxRequestBytes = 10 << 20

    @Option(help: "The largest answer body passed back, in bytes.")
    var maxResponseBytes = 32 << 20

    @Flag(help: "Log each request's headers too, credentials redacted.")
    var verbose = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard (0...1).contains(faultRate) else { throw ValidationError("--fault-rate must be 0 to 1") }
        guard upstreamTimeout > 0, upstreamTimeout <= 3600 else {
            throw ValidationError("--upstream-timeout must be above 0 and at most 3600 seconds")
        }
        guard maxRequestBytes >= 0, maxResponseBytes >= 0 else {
            throw ValidationError("--max-request-bytes and --max-response-bytes must be 0 or more")
        }
        _ = try upstreamURL()
        if let scenario {
            let parsed: ProxyScenario
            do {
                parsed = try ProxyScenario(parsing: scenario)
            } catch {
                throw ValidationError("--scenario: \(error.description)")
            }
            if parsed.needsDocument, openapi == nil {
                throw ValidationError("--scenario \(parsed.name) is made from the app's OpenAPI document: give it with --openapi")
            }
        }
    }

    /// `--upstream` as a URL the proxy can forward to.
    func upstreamURL() throws(ValidationError) -> URL {
        guard let url = URL(string: upstream), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty
        else {
            throw ValidationError("--upstream must be an http or https URL with a host, such as https://staging.example.com")
        }
        return url
    }

    /// The proxy the options describe; `seed` is its seed, and the random faults' when they are on.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func proxyConfiguration(seed: UInt64, document: BadBackend.ServedDocument? = nil) throws -> BackstopProxy.Configuration {
        BackstopProxy.Configuration(
            upstream: try upstreamURL(), port: port,
            scenario: try scenario.map { text throws in try ProxyScenario(parsing: text) },
            randomFaults: faultRate > 0 ? RandomFaults(rate: faultRate, seed: seed) : nil,
            seed: seed,
            upstreamTimeout: .milliseconds(Int64((upstreamTimeout * 1000).rounded())),
            maximumRequestBodyBytes: maxRequestBytes, maximumResponseBodyBytes: maxResponseBytes, document: document)
    }

    /// The `--openapi` document, read; `nil` without `--openapi`.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func document(seed: UInt64) throws(InputFile.Unreadable) -> BadBackend.ServedDocument? {
        guard let openapi else { return nil }
        return try InputFile.servedDocument(at: openapi, limit: maxBytes, seed: seed)
    }

    /// The upstream as printed: no user, password or query, where credentials would be.
    static func shown(_ upstream: URL) -> String {
        guard var components = URLComponents(url: upstream, resolvingAgainstBaseURL: false) else { return "the upstream" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "the upstream"
    }

    func run() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else {
            FileHandle.standardError.write(Data("backstop proxy: BackstopProxy needs macOS 14 or later\n".utf8))
            throw ExitCode(2)
        }
        try await proxy()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    private func proxy() async throws {
        let seed = seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        let document: BadBackend.ServedDocument?
        do {
            document = try self.document(seed: seed)
        } catch {
            FileHandle.standardError.write(Data("backstop proxy: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let configuration = try proxyConfiguration(seed: seed, document: document)
        var logger = Logger(label: "backstop.proxy") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = verbose ? .debug : .info
        let proxy = BackstopProxy(configuration: configuration, logger: logger)
        var quiet = Logger(label: "backstop.proxy.lifecycle")
        quiet.logLevel = .critical
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [proxy], gracefulShutdownSignals: [.sigterm, .sigint], logger: quiet))
        do {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                let url = try await proxy.listening()
                var text = """
                    BackstopProxy listening on \(url), forwarding to \(Self.shown(configuration.upstream))
                      try:       curl -H 'Backstop-Scenario: trailing-commas' \(url)/
                      scenario:  \(configuration.scenario?.description ?? "none unless a request names one (Backstop-Scenario)")
                      seed:      \(seed) (--seed \(seed) replays what scenarios draw)

                    """
                if let document {
                    text +=
                        "  document:  \(UntrustedText.escaped(openapi ?? "")), \(document.operations.count) operations; schema-aware dirt and codes\n"
                }
                if let faults = configuration.randomFaults { text += "  random faults: rate \(faults.rate)\n" }
                // Written unbuffered: a script reading the address through a pipe must see it now.
                FileHandle.standardOutput.write(Data((text + "Stop with Ctrl-C.\n").utf8))
                try await tasks.waitForAll()
            }
        } catch {
            FileHandle.standardError.write(Data("backstop proxy: cannot serve on 127.0.0.1:\(port): \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
