import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
@_spi(Generated) import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// The pipeline as the one middleware in the chain an OpenAPI-generated `Client` builds: `UniversalClient`,
    /// which generated code calls with each operation's serializer and deserializer.
    @Suite("The pipeline in an OpenAPI-generated client")
    struct GeneratedClientTests {
        /// What a generated `getItem` operation does, through `client`.
        static func getItem(_ client: UniversalClient, path: String) async throws -> (status: Int, body: Data) {
            try await client.send(
                input: path,
                forOperation: "getItem",
                serializer: { path in (HTTPRequest(method: .get, scheme: nil, authority: nil, path: path), nil) },
                deserializer: { response, body in
                    (response.status.code, try await Data(collecting: body ?? HTTPBody(), upTo: 1 << 20))
                }
            )
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func retryLoggingMetricsAndATimeoutServeAGeneratedClient(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let handler = InMemoryLogHandler.keepingDebug()
                let metrics = TestMetrics()
                let pipeline = quietPipeline {
                    $0.logging = RequestLogging(logger: Logger(label: "generated") { _ in handler })
                    $0.metrics = RequestMetrics(factory: metrics)
                    $0.retry = .default
                    // A timeout far longer than a call: each call runs beside its timer, which never
                    // fires; no backoff wait, so retries need no clock either.
                    $0.timeout = .seconds(30)
                    $0.random = { 0 }
                }
                let client = UniversalClient(
                    serverURL: url, transport: transport.make(),
                    middlewares: [
                        PipelineMiddleware(pipeline, contract: EnvelopeContract.b, generalCodes: GeneralCode.self)
                    ])
                let flaky = try await Self.getItem(client, path: "/scenarios/http-503/b/products/1?failures=1&token=s3cret")
                #expect(flaky.status == 200)
                #expect(await backend.hits("/scenarios/http-503/b/products/1") == 2)

                // The classifier lets the retry see a rate-limited code inside a 200 envelope.
                let business = try await Self.getItem(client, path: "/scenarios/rate-limited/b/products/1?failures=1")
                #expect(business.status == 200)
                #expect(String(decoding: business.body, as: UTF8.self).contains("\"id\":1"))
                #expect(
                    await backend.requests(to: "/scenarios/rate-limited/b/products/1").map(\.scenario) == [.general(.rateLimited), nil])

                #expect(handler.entries.count == 2)
                #expect(handler.entries.first?.metadata["attempts"] == "2")
                #expect(handler.entries.first?.metadata["operation"] == "getItem")
                #expect(handler.entries.first?.metadata["path"] == "/scenarios/http-503/b/products/1?failures=1&token=<redacted>")
                #expect(handler.entries.last?.metadata["retries"] == "server.rateLimited")
                #expect(
                    try metrics.expectCounter("backstop_requests_total", [("operation", "getItem"), ("method", "GET"), ("status", "200")])
                        .totalValue == 2)
                #expect(metrics.counterTotal(label: "backstop_retries_total") == 2)
            }
        }

        @Test(arguments: TransportKind.allCases)
        func aTransportErrorWrappedInClientErrorIsClassified(transport: TransportKind) async throws {
            let handler = InMemoryLogHandler.keepingDebug()
            let pipeline = quietPipeline {
                $0.logging = RequestLogging(logger: Logger(label: "generated") { _ in handler })
                $0.retry = .default
                $0.clock = ImmediateClock()
            }
            let client = UniversalClient(
                serverURL: refusedURL, transport: transport.make(),
                middlewares: [
                    PipelineMiddleware(pipeline, contract: EnvelopeContract.b, generalCodes: GeneralCode.self)
                ])
            do {
                _ = try await Self.getItem(client, path: "/b/products/1")
                Issue.record("a refused connection succeeded")
            } catch {
                #expect(error is ClientError)
                let failure = TransportFailure(error)
                #expect(failure.reason == .cannotConnectToHost)
                #expect(!(failure.underlying?.error is ClientError))
            }
            #expect(handler.entries.first?.metadata["layer"] == "transport")
            #expect(handler.entries.first?.metadata["attempts"] == "3")
        }
    }
}
