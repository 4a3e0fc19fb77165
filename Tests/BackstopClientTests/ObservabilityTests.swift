import Backstop
import Clocks
import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
import Testing

extension BackstopClient {
    @Suite("Logging and metrics")
    struct ObservabilityTests {
        static let secrets = ["Bearer t0ken-Secret", "session=c00kie-Secret", "k3y-Secret", "qu3ry-Secret"]

        /// An endpoint that carries every kind of secret: credential, cookie, a configured header and query item.
        static func secretEndpoint(_ path: String) -> Endpoint<Item, ItemCode> {
            var headers = HTTPFields()
            headers[.authorization] = secrets[0]
            headers[.cookie] = secrets[1]
            headers[HTTPField.Name("X-Api-Key")!] = secrets[2]
            return Endpoint(.get, path, query: [URLQueryItem(name: "token", value: secrets[3]), URLQueryItem(name: "page", value: "2")],
                            headerFields: headers)
        }

        static func logging(_ handler: InMemoryLogHandler) -> LoggingMiddleware {
            LoggingMiddleware(logger: Logger(label: "test") { _ in handler }, secretHeaderFields: [HTTPField.Name("X-Api-Key")!],
                              secretQueryItems: ["token"])
        }

        /// Everything a handler received, as text.
        static func everything(in handler: InMemoryLogHandler) -> String {
            handler.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        }

        @Test func oneInfoLinePerCallWithItsFacts() async throws {
            let server = try await TestServer.running()
            let handler = InMemoryLogHandler()
            let client = makeClient(server, middlewares: [Self.logging(handler), RetryMiddleware(clock: ImmediateClock())])
            _ = try await client.send(Endpoint<Item, ItemCode>(.get, "quoted/4"))
            _ = try await client.send(RetryTests.statusEndpoint(key: uniqueKey(), code: 503))
            let entries = handler.entries
            #expect(entries.count == 2)
            #expect(entries.allSatisfy { $0.level == .info })
            let first = try #require(entries.first)
            #expect("\(first.message)".hasPrefix("GET /quoted/4 → 200 in "))
            #expect("\(first.message)".hasSuffix(", 1 attempt, 1 repair"))
            #expect(first.metadata["method"] == "GET")
            #expect(first.metadata["path"] == "/quoted/4")
            #expect(first.metadata["status"] == "200")
            #expect(first.metadata["attempts"] == "1")
            #expect(first.metadata["repairs"] == "1")
            #expect(first.metadata["duration_ms"] != nil)
            #expect(entries.last?.metadata["attempts"] == "2")
            #expect(entries.last?.metadata["retries"] == "status.503")
        }

        @Test func aFailureIsLoggedWithTheErrorsOneLineDescription() async throws {
            let server = try await TestServer.running()
            let handler = InMemoryLogHandler()
            let client = makeClient(server, middlewares: [Self.logging(handler)])
            let error = await failure(of: client, Endpoint<Item, ItemCode>(.get, "business/\(uniqueKey())", query: [
                URLQueryItem(name: "code", value: "40401"),
            ]))
            let entry = try #require(handler.entries.first)
            #expect(handler.entries.count == 1)
            #expect(entry.metadata["layer"] == "server")
            #expect(entry.metadata["error"] == "\(try #require(error).description)")
            #expect("\(entry.message)".hasSuffix(": server → module ItemCode.notFound (40401) → \"declined\""))
        }

        @Test(arguments: TransportKind.allCases)
        func noSecretReachesTheLogHandler(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let handler = InMemoryLogHandler()
            let client = makeClient(server, transport, middlewares: [Self.logging(handler), RetryMiddleware(clock: ImmediateClock())])
            _ = try await client.send(Self.secretEndpoint("items/3"))
            _ = await failure(of: client, Self.secretEndpoint("status/\(uniqueKey())"))
            // A refused connection: the transport's error quotes the whole URL.
            let refused = makeClient(server, transport, middlewares: [Self.logging(handler)], baseURL: refusedURL)
            _ = await failure(of: refused, Self.secretEndpoint("items/3"))
            let logged = Self.everything(in: handler)
            #expect(handler.entries.count == 3)
            for secret in Self.secrets + ["t0ken", "c00kie", "k3y", "qu3ry"] {
                #expect(!logged.contains(secret), "\(secret) was logged")
            }
            #expect(logged.contains("token=<redacted>&page=2"))
        }

        @Test func metricsCountRequestsFailuresRetriesAndRepairsWithDimensions() async throws {
            let server = try await TestServer.running()
            let metrics = TestMetrics()
            let client = makeClient(server, middlewares: [MetricsMiddleware(factory: metrics), RetryMiddleware(clock: ImmediateClock())])
            _ = try await client.send(Endpoint<Item, ItemCode>(.get, "quoted/4", operationID: "quoted"))
            _ = try await client.send(RetryTests.statusEndpoint(key: uniqueKey(), code: 503, failures: 1))
            _ = await failure(of: client, Endpoint<Item, ItemCode>(.get, "business/\(uniqueKey())", query: [
                URLQueryItem(name: "code", value: "40401"),
            ], operationID: "business"))
            _ = await failure(of: client, Endpoint<Item, ItemCode>(.get, "malformed/\(uniqueKey())", operationID: "malformed"))

            #expect(metrics.counterTotal(label: "backstop_requests_total") == 4)
            #expect(try metrics.expectCounter("backstop_requests_total", [("operation", "quoted"), ("method", "GET"), ("status", "200")]).totalValue == 1)
            #expect(try metrics.expectCounter("backstop_repairs_total", [("operation", "quoted")]).totalValue == 1)
            #expect(metrics.counterTotal(label: "backstop_retries_total") == 1)
            #expect(metrics.counters(label: "backstop_retries_total").first?.dimensions.contains { $0 == ("reason", "status.503") } == true)
            #expect(try metrics.expectCounter("backstop_failures_total", [("operation", "business"), ("layer", "server"), ("kind", "server.module")]).totalValue == 1)
            #expect(try metrics.expectCounter("backstop_failures_total", [("operation", "malformed"), ("layer", "decoding"), ("kind", "decoding.body")]).totalValue == 1)
            #expect(metrics.timers(label: "backstop_request_duration").reduce(0) { $0 + $1.values.count } == 4)
        }
    }
}
