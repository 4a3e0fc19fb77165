import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// Each retry rule against BadBackend; backoff waits pass at once on an immediate clock.
    @Suite("Retry against a real server")
    struct RetryTests {
        /// Retry with the default rules, waits that pass at once, and a budget of its own.
        static func retrying(clock: any Clock<Duration> = ImmediateClock(), policy: RetryPolicy = .default) -> ClientPipeline {
            quietPipeline {
                $0.retry = policy
                $0.clock = clock
            }
        }

        /// The path of product 1 answering `code` while its scenario lasts.
        static func statusPath(_ code: Int) -> String { "/scenarios/http-\(code)/b/products/1" }

        /// Product 1, after `code` for the first `failures` attempts, with `Retry-After` when given.
        static func statusEndpoint(code: Int, failures: Int = 1, retryAfter: String? = nil) -> Endpoint<Item, StudyGroupCode> {
            var query = [URLQueryItem(name: "failures", value: "\(failures)")]
            if let retryAfter { query.append(URLQueryItem(name: "retryAfter", value: retryAfter)) }
            return Endpoint(.get, String(statusPath(code).dropFirst()), query: query)
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: [408, 429, 500, 502, 503, 504])
        func retryableStatusesAreRetried(code: Int) async throws {
            try await withBackend { backend, url in
                let client = makeClient(url, pipeline: Self.retrying())
                let response = try await client.response(for: Self.statusEndpoint(code: code))
                #expect(response.attempts == 2)
                #expect(response.payload == .one)
                #expect(await backend.requests(to: Self.statusPath(code)).map(\.scenario) == [.httpStatus(code), nil])
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: [400, 404, 409, 501])
        func otherStatusesAreNot(code: Int) async throws {
            try await withBackend { backend, url in
                let client = makeClient(url, pipeline: Self.retrying())
                let error = await failure(of: client, Self.statusEndpoint(code: code))
                #expect(error?.layer == .http)
                #expect(await backend.hits(Self.statusPath(code)) == 1)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func attemptsStopAtTheLimit(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let client = makeClient(url, transport, pipeline: Self.retrying())
                let error = await failure(of: client, Self.statusEndpoint(code: 503, failures: 10))
                guard case .http(let http)? = error else {
                    Issue.record("expected an HTTP failure, got \(String(describing: error))")
                    return
                }
                #expect(http.status == .serviceUnavailable)
                #expect(await backend.hits(Self.statusPath(503)) == 3)
            }
        }

        /// The echo (products answer GET only), a path each, so the attempts at one never count for another.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func postIsNotRetriedUnlessTheEndpointSaysItIsIdempotent() async throws {
            try await withBackend { backend, url in
                let client = makeClient(url, pipeline: Self.retrying())
                func endpoint(_ method: HTTPRequest.Method, _ name: String, isIdempotent: Bool? = nil) -> Endpoint<
                    Echo<Item>, StudyGroupCode
                > {
                    Endpoint(
                        method, "scenarios/http-503/b/echo/\(name)", query: [URLQueryItem(name: "failures", value: "1")],
                        body: method == .get ? nil : .json(Item.one), isIdempotent: isIdempotent)
                }
                #expect(await failure(of: client, endpoint(.post, "post"))?.layer == .http)
                #expect(await backend.hits("/scenarios/http-503/b/echo/post") == 1)

                #expect(await failure(of: client, endpoint(.post, "idempotent", isIdempotent: true)) == nil)
                #expect(await backend.hits("/scenarios/http-503/b/echo/idempotent") == 2)

                #expect(await failure(of: client, endpoint(.get, "get", isIdempotent: false))?.layer == .http)
                #expect(await backend.hits("/scenarios/http-503/b/echo/get") == 1)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func anEndpointCanTurnRetriesOff() async throws {
            try await withBackend { backend, url in
                let client = makeClient(url, pipeline: Self.retrying())
                var endpoint = Self.statusEndpoint(code: 503)
                endpoint.retry = .never
                #expect(await failure(of: client, endpoint)?.layer == .http)
                #expect(await backend.hits(Self.statusPath(503)) == 1)
            }
        }

        @Test(arguments: TransportKind.allCases)
        func aRefusedConnectionIsRetried(transport: TransportKind) async throws {
            let counter = AttemptCounter()
            let client = makeClient(
                refusedURL, transport,
                pipeline: quietPipeline {
                    $0.retry = .default
                    $0.clock = ImmediateClock()
                    $0.middlewares = [counter]
                })
            let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
            #expect(transportReason(of: error) == .cannotConnectToHost)
            #expect(counter.attempts == 3)
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func aRateLimitedBusinessCodeIsRetriedOtherCodesAreNot() async throws {
            try await withBackend { backend, url in
                let client = makeClient(url, pipeline: Self.retrying())
                let response = try await client.response(
                    for: Endpoint<Item, StudyGroupCode>(
                        .get, "scenarios/rate-limited/b/products/1",
                        query: [
                            URLQueryItem(name: "failures", value: "1")
                        ]))
                #expect(response.attempts == 2)
                #expect(response.payload == .one)
                #expect(
                    await backend.requests(to: "/scenarios/rate-limited/b/products/1").map(\.scenario) == [.general(.rateLimited), nil])

                let error = await failure(
                    of: client,
                    Endpoint<Item, StudyGroupCode>(
                        .get, "scenarios/class-not-found/b/products/1",
                        query: [
                            URLQueryItem(name: "failures", value: "1")
                        ]))
                #expect(error == .server(.module(.classNotFound, message: "Class not found")))
                #expect(await backend.hits("/scenarios/class-not-found/b/products/1") == 1)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func aDecodingFailureIsNotRetried() async throws {
            try await withBackend { backend, url in
                let client = makeClient(url, pipeline: Self.retrying())
                #expect(
                    await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/truncated-body/b/products/1"))?.layer
                        == .decoding)
                #expect(await backend.hits("/scenarios/truncated-body/b/products/1") == 1)
            }
        }

        /// Issue 49: a clock whose sleeps return at once, as teams test retries with, paces the
        /// retries and not the default 30 s timeout, which keeps to the system's time: before,
        /// every call ended as `timedOut` at once. Each call fails twice before its answer.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aClockThatPassesNoTimePacesRetriesNotTheDefaultTimeout(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let clock = RecordingClock()
                // A budget for every retry of the 30 calls: it is not what is tested here.
                let pipeline = ClientPipeline(
                    logging: nil, metrics: nil, retryBudget: RetryBudget(reserve: 60), clock: clock, random: { 1 })
                #expect(pipeline.timeout == ClientPipeline.defaultTimeout)
                let client = APIClient<GeneralCode>(
                    baseURL: url, contract: EnvelopeContract.b, decoder: ResilientJSONDecoder(), pipeline: pipeline,
                    transport: transport.make())
                // A path a call, since `failures` counts the attempts at a path.
                for call in 0..<30 {
                    let endpoint = Endpoint<Echo<String?>, StudyGroupCode>(
                        .get, "scenarios/http-503/b/echo/\(call)", query: [URLQueryItem(name: "failures", value: "2")])
                    let echo = try await client.send(endpoint)
                    #expect(echo.path.hasPrefix("/scenarios/http-503/b/echo/\(call)"))
                    #expect(await backend.hits("/scenarios/http-503/b/echo/\(call)") == 3)
                }
                // Two backoffs a call, and no timeout's sleep among them.
                #expect(clock.sleeps.count == 60)
                #expect(clock.sleeps.allSatisfy { $0 < .seconds(30) }, "\(clock.sleeps)")
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func retryAfterSecondsAreWaitedInsteadOfTheBackoff() async throws {
            try await withBackend { _, url in
                let clock = RecordingClock()
                let client = makeClient(url, pipeline: Self.retrying(clock: clock))
                _ = try await client.send(Self.statusEndpoint(code: 503, failures: 2, retryAfter: "7"))
                #expect(clock.sleeps == [.seconds(7), .seconds(7)])
            }
        }

        /// Dates are measured from the response's `Date`, which the server sets to now: a date
        /// far ahead waits the cap, a past one nothing, and a malformed one gets the backoff.
        /// One server per `Retry-After`, so each first attempt fails.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func retryAfterDatesInEachFormAreWaitedCappedAndMalformedOnesIgnored() async throws {
            let clock = RecordingClock()
            let retrying = quietPipeline {
                $0.retry = RetryPolicy(maximumRetryAfter: .seconds(20))
                $0.clock = clock
                $0.random = { 1 }
            }
            for retryAfter in [
                "Wed, 21 Oct 2099 07:28:03 GMT", "Wednesday, 21-Oct-15 07:28:10 GMT", "Wed Oct 21 07:28:15 2099",
                "Wed, 21 Oct 2015 07:28:00 GMT", "in a while",
            ] {
                try await withBackend { _, url in
                    let client = makeClient(url, pipeline: retrying)
                    _ = try await client.send(Self.statusEndpoint(code: 503, retryAfter: retryAfter))
                }
            }
            // A date in the past is no wait, and no wait is no sleep.
            #expect(clock.sleeps == [.seconds(20), .seconds(20), .milliseconds(500)])
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func theBodyIsReplayedExactlyOnEveryAttempt(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let client = makeClient(url, transport, pipeline: Self.retrying())
                let item = Item(id: 12, name: "Twelve")
                var endpoint = Endpoint<Echo<Item>, StudyGroupCode>(
                    .post, "scenarios/http-503/b/echo",
                    query: [
                        URLQueryItem(name: "failures", value: "2")
                    ], body: item)
                endpoint.isIdempotent = true
                let echo = try await client.send(endpoint)
                #expect(echo.body == item)
                let bodies = await backend.requestLog.entries.compactMap(\.body)
                #expect(bodies.count == 3)
                #expect(Set(bodies).count == 1)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aBodyThatCanBeReadOnlyOnceIsReplayedToo(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let chunks = ["{\"id\":5,", "\"name\":\"Five\"}"]
                let stream = AsyncStream<HTTPBody.ByteChunk> { continuation in
                    for chunk in chunks { continuation.yield(ArraySlice(chunk.utf8)) }
                    continuation.finish()
                }
                let body = HTTPBody(stream, length: .unknown, iterationBehavior: .single)
                let pipeline = quietPipeline {
                    $0.retry = RetryPolicy(retryableMethods: [.post])
                    $0.clock = ImmediateClock()
                }
                let retry = PipelineMiddleware(pipeline, contract: EnvelopeContract.b, generalCodes: GeneralCode.self)
                let sender = transport.make()
                var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/scenarios/http-503/b/echo?failures=2")
                request.headerFields[.contentType] = "application/json"
                let (response, _) = try await retry.intercept(request, body: body, baseURL: url, operationID: "echo") {
                    try await sender.send($0, body: $1, baseURL: $2, operationID: "echo")
                }
                #expect(response.status == .ok)
                let bodies = await backend.requestLog.entries.map(\.body)
                #expect(bodies == Array(repeating: Data(chunks.joined().utf8), count: 3))
            }
        }

        /// The backoff waits on a test clock nobody advances: only the cancellation can end it
        /// (the time limit only stops a hang).
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(1))) func cancellingDuringTheBackoffEndsTheWaitAtOnce() async throws {
            try await withBackend { backend, url in
                let client = makeClient(url, pipeline: Self.retrying(clock: TestClock()))
                let call = Task { await failure(of: client, Self.statusEndpoint(code: 503, failures: 5)) }
                _ = try await backend.requestLog.arrival()
                call.cancel()
                #expect(transportReason(of: await call.value) == .cancelled)
                #expect(await backend.hits(Self.statusPath(503)) == 1)
            }
        }
    }
}
