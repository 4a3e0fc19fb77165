import Backstop
import Clocks
import Foundation
import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// Each retry rule against the real server; backoff waits pass at once on an immediate clock.
    @Suite("Retry against a real server")
    struct RetryTests {
        /// Retry with the default rules, waits that pass at once, and a budget of its own.
        static func retry(clock: any Clock<Duration> = ImmediateClock(), policy: RetryPolicy = .default) -> RetryMiddleware {
            RetryMiddleware(policy: policy, clock: clock)
        }

        static func statusEndpoint(_ method: HTTPRequest.Method = .get, key: String, code: Int, failures: Int = 1,
                                   retryAfter: String? = nil, isIdempotent: Bool? = nil) -> Endpoint<Item, ItemCode> {
            var query = [URLQueryItem(name: "code", value: "\(code)"), URLQueryItem(name: "failures", value: "\(failures)")]
            if let retryAfter { query.append(URLQueryItem(name: "retryAfter", value: retryAfter)) }
            return Endpoint(method, "status/\(key)", query: query, isIdempotent: isIdempotent)
        }

        @Test(arguments: [408, 429, 500, 502, 503, 504])
        func retryableStatusesAreRetried(code: Int) async throws {
            let server = try await TestServer.running()
            let key = uniqueKey()
            let client = makeClient(server, middlewares: [Self.retry()])
            let response = try await client.response(for: Self.statusEndpoint(key: key, code: code))
            #expect(response.attempts == 2)
            #expect(response.payload.id == 2)
            #expect(await server.state.hits(key) == 2)
        }

        @Test(arguments: [400, 404, 409, 501])
        func otherStatusesAreNot(code: Int) async throws {
            let server = try await TestServer.running()
            let key = uniqueKey()
            let client = makeClient(server, middlewares: [Self.retry()])
            let error = await failure(of: client, Self.statusEndpoint(key: key, code: code))
            #expect(error?.layer == .http)
            #expect(await server.state.hits(key) == 1)
        }

        @Test(arguments: TransportKind.allCases)
        func attemptsStopAtTheLimit(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let key = uniqueKey()
            let client = makeClient(server, transport, middlewares: [Self.retry()])
            let error = await failure(of: client, Self.statusEndpoint(key: key, code: 503, failures: 10))
            guard case .http(let http)? = error else {
                Issue.record("expected an HTTP failure, got \(String(describing: error))")
                return
            }
            #expect(http.status == .serviceUnavailable)
            #expect(await server.state.hits(key) == 3)
        }

        @Test func postIsNotRetriedUnlessTheEndpointSaysItIsIdempotent() async throws {
            let server = try await TestServer.running()
            let client = makeClient(server, middlewares: [Self.retry()])
            let post = uniqueKey("post")
            #expect(await failure(of: client, Self.statusEndpoint(.post, key: post, code: 503))?.layer == .http)
            #expect(await server.state.hits(post) == 1)

            let idempotent = uniqueKey("idempotent")
            #expect(await failure(of: client, Self.statusEndpoint(.post, key: idempotent, code: 503, isIdempotent: true)) == nil)
            #expect(await server.state.hits(idempotent) == 2)

            let get = uniqueKey("get")
            #expect(await failure(of: client, Self.statusEndpoint(.get, key: get, code: 503, isIdempotent: false))?.layer == .http)
            #expect(await server.state.hits(get) == 1)
        }

        @Test func anEndpointCanTurnRetriesOff() async throws {
            let server = try await TestServer.running()
            let key = uniqueKey()
            let client = makeClient(server, middlewares: [Self.retry()])
            var endpoint = Self.statusEndpoint(key: key, code: 503)
            endpoint.retry = .never
            #expect(await failure(of: client, endpoint)?.layer == .http)
            #expect(await server.state.hits(key) == 1)
        }

        @Test(arguments: TransportKind.allCases)
        func aRefusedConnectionIsRetried(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let counter = AttemptCounter()
            let client = makeClient(server, transport, middlewares: [Self.retry(), counter], baseURL: refusedURL)
            let error = await failure(of: client, Endpoint<Item, ItemCode>(.get, "items/1"))
            #expect(transportReason(of: error) == .cannotConnectToHost)
            #expect(counter.attempts == 3)
        }

        @Test func aRateLimitedBusinessCodeIsRetriedOtherCodesAreNot() async throws {
            let server = try await TestServer.running()
            let client = makeClient(server, middlewares: [Self.retry()])
            let limited = uniqueKey("limited")
            let response = try await client.response(for: Endpoint<Item, ItemCode>(.get, "business/\(limited)", query: [
                URLQueryItem(name: "code", value: "42901"), URLQueryItem(name: "failures", value: "1"),
            ]))
            #expect(response.attempts == 2)
            #expect(response.payload.id == 2)

            let notFound = uniqueKey("notFound")
            let error = await failure(of: client, Endpoint<Item, ItemCode>(.get, "business/\(notFound)", query: [
                URLQueryItem(name: "code", value: "40401"), URLQueryItem(name: "failures", value: "1"),
            ]))
            #expect(error == .server(.module(.notFound, message: "declined")))
            #expect(await server.state.hits(notFound) == 1)
        }

        @Test func aDecodingFailureIsNotRetried() async throws {
            let server = try await TestServer.running()
            let key = uniqueKey()
            let client = makeClient(server, middlewares: [Self.retry()])
            #expect(await failure(of: client, Endpoint<Item, ItemCode>(.get, "malformed/\(key)"))?.layer == .decoding)
            #expect(await server.state.hits(key) == 1)
        }

        @Test func retryAfterSecondsAreWaitedInsteadOfTheBackoff() async throws {
            let server = try await TestServer.running()
            let clock = RecordingClock()
            let client = makeClient(server, middlewares: [Self.retry(clock: clock)])
            _ = try await client.send(Self.statusEndpoint(key: uniqueKey(), code: 503, failures: 2, retryAfter: "7"))
            #expect(clock.sleeps == [.seconds(7), .seconds(7)])
        }

        /// Dates are measured from the response's `Date`, which the server sets to now: a date
        /// far ahead waits the cap, a past one nothing, and a malformed one gets the backoff.
        @Test func retryAfterDatesInEachFormAreWaitedCappedAndMalformedOnesIgnored() async throws {
            let server = try await TestServer.running()
            let clock = RecordingClock()
            let retry = RetryMiddleware(policy: RetryPolicy(maximumRetryAfter: .seconds(20)), clock: clock, random: { 1 })
            let client = makeClient(server, middlewares: [retry])
            for retryAfter in ["Wed, 21 Oct 2099 07:28:03 GMT", "Wednesday, 21-Oct-15 07:28:10 GMT", "Wed Oct 21 07:28:15 2099",
                               "Wed, 21 Oct 2015 07:28:00 GMT", "in a while"] {
                _ = try await client.send(Self.statusEndpoint(key: uniqueKey(), code: 503, retryAfter: retryAfter))
            }
            #expect(clock.sleeps == [.seconds(20), .zero, .seconds(20), .zero, .milliseconds(500)])
        }

        @Test(arguments: TransportKind.allCases)
        func theBodyIsReplayedExactlyOnEveryAttempt(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let key = uniqueKey()
            let client = makeClient(server, transport, middlewares: [Self.retry()])
            let item = Item(id: 12, name: "Twelve")
            var endpoint = Endpoint<Item, ItemCode>(.post, "echo/\(key)", query: [URLQueryItem(name: "failures", value: "2")],
                                                    body: item)
            endpoint.isIdempotent = true
            #expect(try await client.send(endpoint) == item)
            let bodies = await server.state.bodies(key)
            #expect(bodies.count == 3)
            #expect(Set(bodies).count == 1)
        }

        @Test(arguments: TransportKind.allCases)
        func aBodyThatCanBeReadOnlyOnceIsReplayedToo(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let key = uniqueKey()
            let chunks = ["{\"id\":5,", "\"name\":\"Five\"}"]
            let stream = AsyncStream<HTTPBody.ByteChunk> { continuation in
                for chunk in chunks { continuation.yield(ArraySlice(chunk.utf8)) }
                continuation.finish()
            }
            let body = HTTPBody(stream, length: .unknown, iterationBehavior: .single)
            let retry = RetryMiddleware(policy: RetryPolicy(retryableMethods: [.post]), clock: ImmediateClock())
            let sender = transport.make()
            var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/echo/\(key)?failures=2")
            request.headerFields[.contentType] = "application/json"
            let (response, _) = try await retry.intercept(request, body: body, baseURL: server.baseURL, operationID: "echo") {
                try await sender.send($0, body: $1, baseURL: $2, operationID: "echo")
            }
            #expect(response.status == .ok)
            let bodies = await server.state.bodies(key)
            #expect(bodies == Array(repeating: Data(chunks.joined().utf8), count: 3))
        }

        @Test func cancellingDuringTheBackoffEndsTheWaitAtOnce() async throws {
            let server = try await TestServer.running()
            let key = uniqueKey()
            // A test clock nobody advances: the backoff would wait forever.
            let client = makeClient(server, middlewares: [Self.retry(clock: TestClock())])
            let call = Task { await failure(of: client, Self.statusEndpoint(key: key, code: 503, failures: 5)) }
            await server.state.arrival(of: key)
            let cancelled = ContinuousClock.now
            call.cancel()
            let error = await call.value
            #expect(transportReason(of: error) == .cancelled)
            #expect(ContinuousClock.now - cancelled < .seconds(1))
            #expect(await server.state.hits(key) == 1)
        }
    }
}
