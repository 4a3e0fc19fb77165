import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
import Synchronization
import Testing

extension BackstopClient {
    @Suite("Logging and metrics")
    struct ObservabilityTests {
        static let secrets = ["Bearer t0ken-Secret", "session=c00kie-Secret", "k3y-Secret", "qu3ry-Secret"]

        /// An endpoint that carries every kind of secret: credential, cookie, a configured header and query item.
        /// BadBackend's echo takes any credential, and mirrors them all in its answer.
        static func secretEndpoint<Payload>(_ path: String) -> Endpoint<Payload, StudyGroupCode> {
            var headers = HTTPFields()
            headers[.authorization] = secrets[0]
            headers[.cookie] = secrets[1]
            headers[HTTPField.Name("X-Api-Key")!] = secrets[2]
            return Endpoint(
                .get, path, query: [URLQueryItem(name: "token", value: secrets[3]), URLQueryItem(name: "page", value: "2")],
                headerFields: headers)
        }

        static func logging(_ handler: InMemoryLogHandler) -> RequestLogging {
            RequestLogging(logger: Logger(label: "test") { _ in handler })
        }

        /// A pipeline with `logging`, `metrics` and, when `retries`, the default retry rules with waits that pass at once.
        static func observed(logging: RequestLogging? = nil, metrics: RequestMetrics? = nil, retries: Bool = true) -> ClientPipeline {
            quietPipeline {
                $0.redaction.headerFields.insert(HTTPField.Name("X-Api-Key")!)
                $0.logging = logging
                $0.metrics = metrics
                if retries { $0.retry = .default }
                $0.clock = ImmediateClock()
            }
        }

        /// Everything a handler received, as text.
        static func everything(in handler: InMemoryLogHandler) -> String {
            handler.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func oneDebugLinePerCallWithItsFacts() async throws {
            try await withBackend { _, url in
                let handler = InMemoryLogHandler.keepingDebug()
                let client = makeClient(url, pipeline: Self.observed(logging: Self.logging(handler)))
                _ = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "scenarios/numbers-as-strings/b/products/1"))
                _ = try await client.send(RetryTests.statusEndpoint(code: 503))
                let entries = handler.entries
                #expect(entries.count == 2)
                #expect(entries.allSatisfy { $0.level == .debug })
                let first = try #require(entries.first)
                #expect("\(first.message)".hasPrefix("GET /scenarios/numbers-as-strings/b/products/1 → 200 in "))
                #expect("\(first.message)".hasSuffix(", 1 attempt, 1 repair"))
                #expect(first.metadata["method"] == "GET")
                #expect(first.metadata["path"] == "/scenarios/numbers-as-strings/b/products/1")
                #expect(first.metadata["status"] == "200")
                #expect(first.metadata["attempts"] == "1")
                #expect(first.metadata["repairs"] == "1")
                #expect(first.metadata["duration_ms"] != nil)
                #expect(entries.last?.metadata["attempts"] == "2")
                #expect(entries.last?.metadata["retries"] == "status.503")
            }
        }

        /// Lines are `debug` unless the app says otherwise, as swift-log's guidelines for
        /// libraries ask: a logger at swift-log's default level (`info`) gets none, success or failure.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func aLoggerAtSwiftLogsDefaultLevelGetsNoLine() async throws {
            try await withBackend { _, url in
                let handler = InMemoryLogHandler()
                #expect(handler.logLevel == .info)
                let client = makeClient(url, pipeline: Self.observed(logging: Self.logging(handler), retries: false))
                _ = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "scenarios/numbers-as-strings/b/products/1"))
                _ = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/class-not-found/b/products/1"))
                #expect(handler.entries.isEmpty)
                let production = makeClient(
                    url, pipeline: Self.observed(logging: RequestLogging(logger: Logger(label: "test") { _ in handler }, level: .info)))
                _ = try await production.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                #expect(handler.entries.map(\.level) == [.info])
            }
        }

        /// Below the logger's level, the logging stage stays out of the way; at it, it logs again.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func aLoggerAboveTheLinesLevelGetsNothingAndTheCallIsUnchanged() async throws {
            try await withBackend { _, url in
                let handler = InMemoryLogHandler.keepingDebug()
                var logger = Logger(label: "test") { _ in handler }
                logger.logLevel = .warning
                let quiet = makeClient(url, pipeline: Self.observed(logging: RequestLogging(logger: logger)))
                let response = try await quiet.response(
                    for: Endpoint<Item, StudyGroupCode>(.get, "scenarios/numbers-as-strings/b/products/1"))
                #expect(response.repairs.count == 1)
                #expect(handler.entries.isEmpty)
                let loud = makeClient(
                    url, pipeline: Self.observed(logging: RequestLogging(logger: logger, level: .warning), retries: false))
                _ = try await loud.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                #expect(handler.entries.map(\.level) == [.warning])
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func aFailureIsLoggedWithTheErrorsOneLineDescription() async throws {
            try await withBackend { _, url in
                let handler = InMemoryLogHandler.keepingDebug()
                let client = makeClient(url, pipeline: Self.observed(logging: Self.logging(handler), retries: false))
                let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/class-not-found/b/products/1"))
                let entry = try #require(handler.entries.first)
                #expect(handler.entries.count == 1)
                #expect(entry.metadata["layer"] == "server")
                #expect(entry.metadata["error"] == "\(try #require(error).description)")
                #expect("\(entry.message)".hasSuffix(": server → module StudyGroupCode.classNotFound (11210006) → \"Class not found\""))
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func noSecretReachesTheLogHandler(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let handler = InMemoryLogHandler.keepingDebug()
                let client = makeClient(url, transport, pipeline: Self.observed(logging: Self.logging(handler)))
                let echo: Echo<Item?> = try await client.send(Self.secretEndpoint("b/echo"))
                // The secrets did reach the server.
                #expect(echo.headers["authorization"] == Self.secrets[0])
                _ = await failure(of: client, Self.secretEndpoint("scenarios/http-503/b/echo") as Endpoint<Item, StudyGroupCode>)
                // A refused connection: the transport's error quotes the whole URL.
                let refused = makeClient(refusedURL, transport, pipeline: Self.observed(logging: Self.logging(handler), retries: false))
                _ = await failure(of: refused, Self.secretEndpoint("b/echo") as Endpoint<Item, StudyGroupCode>)
                let logged = Self.everything(in: handler)
                #expect(handler.entries.count == 3)
                for secret in Self.secrets + ["t0ken", "c00kie", "k3y", "qu3ry"] {
                    #expect(!logged.contains(secret), "\(secret) was logged")
                }
                #expect(logged.contains("token=<redacted>&page=2"))
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func metricsCountRequestsFailuresRetriesAndRepairsWithDimensions() async throws {
            try await withBackend { _, url in
                let metrics = TestMetrics()
                let client = makeClient(url, pipeline: Self.observed(metrics: RequestMetrics(factory: metrics)))
                _ = try await client.send(
                    Endpoint<Item, StudyGroupCode>(.get, "scenarios/numbers-as-strings/b/products/1", operationID: "quoted"))
                _ = try await client.send(RetryTests.statusEndpoint(code: 503, failures: 1))
                _ = await failure(
                    of: client,
                    Endpoint<Item, StudyGroupCode>(
                        .get, "scenarios/class-not-found/b/products/1",
                        operationID: "business"))
                _ = await failure(
                    of: client,
                    Endpoint<Item, StudyGroupCode>(
                        .get, "scenarios/truncated-body/b/products/1",
                        operationID: "malformed"))

                #expect(metrics.counterTotal(label: "backstop_requests_total") == 4)
                #expect(
                    try metrics.expectCounter("backstop_requests_total", [("operation", "quoted"), ("method", "GET"), ("status", "200")])
                        .totalValue == 1)
                #expect(try metrics.expectCounter("backstop_repairs_total", [("operation", "quoted")]).totalValue == 1)
                #expect(metrics.counterTotal(label: "backstop_retries_total") == 1)
                #expect(
                    metrics.counters(label: "backstop_retries_total").first?.dimensions.contains { $0 == ("reason", "status.503") } == true)
                #expect(
                    try metrics.expectCounter(
                        "backstop_failures_total", [("operation", "business"), ("layer", "server"), ("kind", "server.module")]
                    ).totalValue == 1)
                #expect(
                    try metrics.expectCounter(
                        "backstop_failures_total", [("operation", "malformed"), ("layer", "decoding"), ("kind", "decoding.body")]
                    ).totalValue == 1)
                #expect(metrics.timers(label: "backstop_request_duration").reduce(0) { $0 + $1.values.count } == 4)
            }
        }

        /// The metrics stage keeps each series' counter and timer rather than make them per call; past
        /// the series it keeps (operation IDs hold identifiers when they default to the path), it
        /// makes them per call again, and every call is still counted and timed once.
        @Test func metricsStayExactPastTheSeriesTheStageKeeps() async throws {
            let metrics = TestMetrics()
            var pipeline = Self.observed(metrics: RequestMetrics(prefix: "first", factory: metrics), retries: false)
            func call(_ operation: String) async throws {
                let middleware = PipelineMiddleware(pipeline, contract: EnvelopeContract.b, generalCodes: GeneralCode.self)
                _ = try await middleware.intercept(
                    HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"), body: nil,
                    baseURL: refusedURL, operationID: operation
                ) { _, _, _ in (HTTPResponse(status: .ok), nil) }
            }
            let operations = (0..<600).map { "GET products/\($0)" }
            for _ in 0..<2 {
                for operation in operations { try await call(operation) }
            }
            #expect(metrics.counterTotal(label: "first_requests_total") == 1_200)
            for operation in [operations[0], operations[511], operations[599]] {
                #expect(
                    try metrics.expectCounter("first_requests_total", [("operation", operation), ("method", "GET"), ("status", "200")])
                        .totalValue == 2)
                #expect(try metrics.expectTimer("first_request_duration", [("operation", operation), ("method", "GET")]).values.count == 2)
            }
            // A changed prefix is a new series, not one kept under the old label.
            pipeline.metrics?.prefix = "second"
            try await call(operations[0])
            #expect(metrics.counterTotal(label: "second_requests_total") == 1)
            #expect(metrics.counterTotal(label: "first_requests_total") == 1_200)
        }

        /// Once a call has ended, nothing of it is left holding what its stages report to: a
        /// call used to keep its own context, and with it the logger, the metrics factory and the
        /// parsed body, for the life of the process.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aFinishedCallKeepsNothingAlive(_ transport: TransportKind) async throws {
            try await withBackend { _, url in
                weak var weakLines: LineCount?
                weak var weakMetrics: TestMetrics?
                do {
                    let lines = LineCount()
                    let metrics = TestMetrics()
                    (weakLines, weakMetrics) = (lines, metrics)
                    let logger = Logger(label: "test") { _ in CountingLogHandler(lines: lines) }
                    let client = makeClient(
                        url, transport,
                        pipeline: Self.observed(
                            logging: RequestLogging(logger: logger),
                            metrics: RequestMetrics(factory: metrics)))
                    _ = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "scenarios/numbers-as-strings/b/products/1"))
                    _ = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/class-not-found/b/products/1"))
                    #expect(lines.value == 2)
                    #expect(metrics.counterTotal(label: "backstop_requests_total") == 2)
                }
                #expect(weakLines == nil, "a finished call still holds the log handler")
                #expect(weakMetrics == nil, "a finished call still holds the metrics factory")
            }
        }
    }
}

/// Counts the lines a ``CountingLogHandler`` receives.
private final class LineCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}

/// A handler at `debug`, the lines' level, that only counts, holding its counter strongly, as a real handler holds its sink.
private struct CountingLogHandler: LogHandler {
    let lines: LineCount
    var logLevel: Logger.Level = .debug
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { lines.add() }
}
