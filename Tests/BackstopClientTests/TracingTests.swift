import Backstop
import BackstopTestSupport
import BackstopTracing
import BadBackend
import Clocks
import Foundation
import InMemoryTracing
@_spi(Generated) import OpenAPIRuntime
import Testing
import Tracing

extension BackstopClient {
    /// The tracing stage: one client span per call with OpenTelemetry's HTTP attributes, its
    /// attempts and retries as events, a refresh as a child span, and the context on the wire.
    @Suite("Traces")
    struct TracingTests {
        static let both = TransportKind.allCases

        /// A pipeline tracing into `tracer`, with the default retry rules and waits that pass at once.
        static func traced(_ tracer: InMemoryTracer) -> ClientPipeline {
            quietPipeline {
                $0.tracing = .distributedTracing(tracer)
                $0.retry = .default
                $0.clock = ImmediateClock()
            }
        }

        /// The finished spans Backstop made: client spans and refreshes, whatever the transport adds.
        static func spans(_ tracer: InMemoryTracer) -> [FinishedInMemorySpan] {
            tracer.finishedSpans.filter { $0.kind == .client || $0.operationName == "refresh credential" }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a call is one client span named by its bounded operation, with its context on the wire", arguments: both)
        func successIsOneSpanWithTheContextInItsHeaders(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let tracer = InMemoryTracer()
                let client = makeClient(url, transport, pipeline: Self.traced(tracer))
                let echo = try await client.send(
                    Endpoint<Echo<Item>, StudyGroupCode>(
                        .post, "b/echo/42", query: [URLQueryItem(name: "token", value: "s3cret")], body: Item.one))
                let spans = Self.spans(tracer)
                #expect(spans.count == 1)
                let span = try #require(spans.first)
                #expect(span.operationName == "POST b/echo/{id}")
                #expect(span.kind == .client)
                #expect(span.attributes.get("http.request.method") == .string("POST"))
                #expect(span.attributes.get("server.address") == .string("127.0.0.1"))
                #expect(span.attributes.get("server.port") == .int64(Int64(url.port ?? 0)))
                #expect(span.attributes.get("url.full") == .string("http://127.0.0.1:\(url.port ?? 0)/b/echo/42?token=REDACTED"))
                #expect(span.attributes.get("http.response.status_code") == .int64(200))
                #expect(span.attributes.get("error.type") == nil)
                #expect(span.status == nil)
                #expect(span.events.map(\.name) == ["attempt"])
                // What the server received names this span.
                #expect(echo.headers[InMemoryTracer.traceIDKey] == span.traceID)
                #expect(echo.headers[InMemoryTracer.spanIDKey] == span.spanID)
                #expect(!"\(span.attributes)".contains("s3cret"))
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("each attempt and the reason of each retry are events of the call's span", arguments: both)
        func retriesAreEventsOfOneSpan(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let tracer = InMemoryTracer()
                let client = makeClient(url, transport, pipeline: Self.traced(tracer))
                // PUT is idempotent, so retried; the echo shows what the second attempt carried.
                let echo = try await client.send(
                    Endpoint<Echo<Item>, StudyGroupCode>(
                        .put, "scenarios/http-503/b/echo/products/1", query: [URLQueryItem(name: "failures", value: "1")], body: Item.one))
                let span = try #require(Self.spans(tracer).first)
                #expect(Self.spans(tracer).count == 1)
                #expect(span.events.map(\.name) == ["attempt", "retry", "attempt"])
                #expect(span.events[1].attributes.get("backstop.retry.reason") == .string("status.503"))
                #expect(span.events[2].attributes.get("http.request.resend_count") == .int64(1))
                #expect(span.attributes.get("http.request.resend_count") == .int64(1))
                #expect(span.attributes.get("http.response.status_code") == .int64(200))
                #expect(span.status == nil)
                #expect(echo.headers[InMemoryTracer.spanIDKey] == span.spanID)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a failed call's span has the error's grouping identifier as error.type and an error status", arguments: both)
        func failuresSetErrorType(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let tracer = InMemoryTracer()
                let client = makeClient(url, transport, pipeline: quietPipeline { $0.tracing = .distributedTracing(tracer) })
                let error = await failure(of: client, RetryTests.statusEndpoint(code: 404))
                let span = try #require(Self.spans(tracer).first)
                #expect(span.attributes.get("http.response.status_code") == .int64(404))
                #expect(span.attributes.get("error.type") == .string(try #require(error).groupingIdentifier))
                #expect(span.status?.code == .error)
            }
            let tracer = InMemoryTracer()
            let offline = makeClient(refusedURL, transport, pipeline: quietPipeline { $0.tracing = .distributedTracing(tracer) })
            let error = try #require(await failure(of: offline, Endpoint<Item, StudyGroupCode>(.get, "b/products/1")))
            let span = try #require(Self.spans(tracer).first)
            #expect(span.attributes.get("http.response.status_code") == nil)
            #expect(span.attributes.get("error.type") == .string(error.groupingIdentifier))
            #expect(error.groupingIdentifier.hasPrefix("transport."))
            #expect(span.status?.code == .error)
            #expect(tracer.performedContextInjections.map { $0.values[InMemoryTracer.spanIDKey] } == [span.spanID])
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a token refresh is a span of its own under the call that started it", arguments: both)
        func aRefreshIsAChildSpan(transport: TransportKind) async throws {
            let tracer = InMemoryTracer()
            try await Session.run(
                transport, pipeline: { $0.tracing = .distributedTracing(tracer) }, refresher: { $0.tracing = .distributedTracing(tracer) }
            ) { session in
                tracer.clearAll()  // the sign-in's span and injection
                await session.expireToken()
                _ = try await session.account().get()
                let spans = Self.spans(tracer)
                let call = try #require(spans.first { $0.operationName == "GET b/account" })
                let refresh = try #require(spans.first { $0.operationName == "refresh credential" })
                let refreshCall = try #require(spans.first { $0.operationName == "POST b/auth/refresh" })
                #expect(spans.count == 3)
                #expect(refresh.parentSpanID == call.spanID)
                #expect(refreshCall.parentSpanID == refresh.spanID)
                #expect(Set(spans.map(\.traceID)) == [call.traceID])
                #expect(refresh.attributes.get("backstop.refresh.outcome") == .string("succeeded"))
                #expect(call.events.map(\.name) == ["attempt", "attempt"])
                // Each call's request carried its own span: the refresh's, under the refresh span.
                #expect(
                    Set(tracer.performedContextInjections.compactMap { $0.values[InMemoryTracer.spanIDKey] })
                        == [call.spanID, refreshCall.spanID])
                // No credential in any attribute of any span.
                let credentials = await session.credentials(for: "/b/account").compactMap { $0 }
                #expect(!credentials.isEmpty)
                for span in spans {
                    for credential in credentials { #expect(!"\(span.attributes) \(span.events)".contains(credential)) }
                }
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a generated client's operation is a span named by its operation ID", arguments: both)
        func generatedClientsAreTraced(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let tracer = InMemoryTracer()
                let client = UniversalClient(
                    serverURL: url, transport: transport.make(),
                    middlewares: [PipelineMiddleware(Self.traced(tracer), contract: EnvelopeContract.b, generalCodes: GeneralCode.self)])
                let answer = try await GeneratedClientTests.getItem(client, path: "/scenarios/http-503/b/products/1?failures=1")
                #expect(answer.status == 200)
                let span = try #require(Self.spans(tracer).first)
                #expect(Self.spans(tracer).count == 1)
                #expect(span.operationName == "getItem")
                #expect(span.events.map(\.name) == ["attempt", "retry", "attempt"])
                #expect(span.attributes.get("http.response.status_code") == .int64(200))
                #expect(tracer.performedContextInjections.count == 1)
            }
        }

        /// `.distributedTracing` reads the tracer in scope at each call: none means no span and no header.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func theBootstrappedTracerIsReadAtEachCallAndNoneTracesNothing() async throws {
            try await withBackend { _, url in
                let client = makeClient(url, pipeline: quietPipeline { $0.tracing = .distributedTracing })
                let untraced = try await client.send(Endpoint<Echo<Item>, StudyGroupCode>(.post, "b/echo", body: Item.one))
                #expect(untraced.headers[InMemoryTracer.traceIDKey] == nil)
                #expect(untraced.headers["traceparent"] == nil)

                let tracer = InMemoryTracer()
                let traced = try await withTracer(tracer) {
                    try await client.send(Endpoint<Echo<Item>, StudyGroupCode>(.post, "b/echo", body: Item.one))
                }
                let span = try #require(Self.spans(tracer).first)
                #expect(traced.headers[InMemoryTracer.traceIDKey] == span.traceID)
            }
        }
    }
}
