import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
@_spi(Generated) import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// The breaker against BadBackend: an outage opens it, calls then fail on the device without
    /// touching the network, and a probe closes it when the backend is back. Time is a test clock.
    @Suite("Circuit breaker", .englishMessages)
    struct CircuitBreakerTests {
        /// A breaker that opens at half of 4 attempts, for 15 s, on `clock`.
        static func breaker(_ clock: TestClock<Duration>, scope: CircuitBreaker.Scope = .host) -> CircuitBreaker {
            CircuitBreaker(failureRatio: 0.5, minimumThroughput: 4, breakDuration: .seconds(15), scope: scope, clock: clock, logger: nil)
        }

        static func client(_ url: URL, _ transport: TransportKind, _ breaker: CircuitBreaker) -> APIClient<GeneralCode> {
            makeClient(url, transport, pipeline: quietPipeline { $0.circuitBreaker = breaker })
        }

        /// The next `count` transitions of `stream`, a subscription to a breaker's, as `from→to`.
        static func transitions(_ stream: AsyncStream<CircuitBreaker.Transition>, _ count: Int) async -> [String] {
            var iterator = stream.makeAsyncIterator()
            var seen: [String] = []
            for _ in 0..<count {
                guard let transition = await iterator.next() else { break }
                seen.append("\(transition.from.rawValue)→\(transition.to.rawValue)")
            }
            return seen
        }

        static func circuitOpen(_ error: APIError<GeneralCode, StudyGroupCode>?) -> ClientFailure? {
            guard case .client(let failure)? = error, failure.reason == .circuitOpen else { return nil }
            return failure
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func anOutageOpensItAndCallsFailAtOnceWithoutTheNetwork(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let clock = TestClock()
                let breaker = Self.breaker(clock)
                let transitions = breaker.transitions
                let client = Self.client(url, transport, breaker)
                let outage = RetryTests.statusEndpoint(code: 503, failures: .max)
                for _ in 0..<4 {
                    guard case .http(let failure)? = await failure(of: client, outage) else {
                        Issue.record("not an HTTP failure")
                        return
                    }
                    #expect(failure.status == .serviceUnavailable)
                }
                let refused = try #require(Self.circuitOpen(await failure(of: client, outage)))
                #expect(refused.retryAfter == .seconds(15))
                #expect(await backend.hits(RetryTests.statusPath(503)) == 4)
                #expect(breaker.state(of: "127.0.0.1:\(url.port ?? 0)") == .open)
                #expect(await Self.transitions(transitions, 1) == ["closed→open"])
                // Every endpoint of the host shares the circuit.
                #expect(Self.circuitOpen(await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "b/products/2"))) != nil)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aProbeClosesItWhenTheBackendIsBackAndAFailedProbeOpensItAgain(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let clock = TestClock()
                let breaker = Self.breaker(clock)
                let transitions = breaker.transitions
                let client = Self.client(url, transport, breaker)
                // Four 503s, then the backend is back, for the first path; the second path stays down.
                for _ in 0..<4 { _ = await failure(of: client, RetryTests.statusEndpoint(code: 503, failures: 4)) }
                #expect(Self.circuitOpen(await failure(of: client, RetryTests.statusEndpoint(code: 503, failures: 4))) != nil)
                await clock.advance(by: .seconds(15))
                let down = RetryTests.statusEndpoint(code: 500, failures: .max)
                #expect(await failure(of: client, down)?.layer == .http)  // the probe, which fails
                #expect(Self.circuitOpen(await failure(of: client, down))?.retryAfter == .seconds(15))
                await clock.advance(by: .seconds(15))
                let item = try await client.send(RetryTests.statusEndpoint(code: 503, failures: 4))  // the probe, which succeeds
                #expect(item == .one)
                _ = try await client.send(RetryTests.statusEndpoint(code: 503, failures: 4))
                #expect(await backend.hits(RetryTests.statusPath(503)) == 6)
                #expect(
                    await Self.transitions(transitions, 5) == [
                        "closed→open", "open→halfOpen", "halfOpen→open", "open→halfOpen", "halfOpen→closed",
                    ])
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aRetryAfterOpensItAtOnceForThatLongAndTheAlertSaysWhen(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let clock = TestClock()
                let breaker = Self.breaker(clock)
                let client = Self.client(url, transport, breaker)
                _ = await failure(of: client, RetryTests.statusEndpoint(code: 503, failures: .max, retryAfter: "20"))
                let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                let refused = try #require(Self.circuitOpen(error))
                #expect(refused.retryAfter == .seconds(20))
                let thrown = try #require(error)
                let alert = try #require(RecoveryPolicy().alert(for: thrown, locale: Locale(identifier: "en")))
                #expect(alert.category == .unavailable)
                #expect(alert.message.hasSuffix("You can try again in 20 seconds."))
                #expect(await backend.hits("/b/products/1") == 0)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aMaintenanceCodeOpensItAtOnce(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let clock = TestClock()
                let breaker = Self.breaker(clock)
                let client = Self.client(url, transport, breaker)
                guard
                    case .server(.general(.maintenance, _))? = await failure(
                        of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/maintenance/b/products/1"))
                else {
                    Issue.record("not the maintenance code")
                    return
                }
                #expect(
                    Self.circuitOpen(await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "b/products/1")))?.retryAfter
                        == .seconds(15))
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func mistakesTheUserMadeNeverOpenIt(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let breaker = Self.breaker(TestClock())
                let client = Self.client(url, transport, breaker)
                for code in [404, 400, 409, 403, 404, 400, 409, 403] {
                    #expect(await failure(of: client, RetryTests.statusEndpoint(code: code, failures: .max))?.layer == .http)
                }
                #expect(await backend.hits(RetryTests.statusPath(404)) == 2)
                #expect(breaker.state(of: "127.0.0.1:\(url.port ?? 0)") == .closed)
                _ = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func perOperationOneOperationsOutageLeavesTheOthersAlone(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let breaker = Self.breaker(TestClock(), scope: .operation)
                let client = Self.client(url, transport, breaker)
                let outage = RetryTests.statusEndpoint(code: 502, failures: .max)
                for _ in 0..<4 { _ = await failure(of: client, outage) }
                #expect(Self.circuitOpen(await failure(of: client, outage)) != nil)
                #expect(breaker.state(of: outage.operationID) == .open)
                let item = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                #expect(item == .one)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aGeneratedClientGetsTheBreakerFromThePipelineMiddleware(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let breaker = Self.breaker(TestClock())
                let client = UniversalClient(
                    serverURL: url, transport: transport.make(),
                    middlewares: [
                        PipelineMiddleware(
                            quietPipeline { $0.circuitBreaker = breaker }, contract: EnvelopeContract.b, generalCodes: GeneralCode.self)
                    ])
                for _ in 0..<4 {
                    let answer = try await GeneratedClientTests.getItem(client, path: RetryTests.statusPath(503))
                    #expect(answer.status == 503)
                }
                await #expect(throws: ClientError.self) {
                    _ = try await GeneratedClientTests.getItem(client, path: RetryTests.statusPath(503))
                }
                #expect(await backend.hits(RetryTests.statusPath(503)) == 4)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func anOutageOnTheServersClockOpensItAndAProbeFindsTheBackendBack(transport: TransportKind) async throws {
            let serverClock = TestClock()
            try await withBackend(clock: serverClock) { backend, url in
                let clock = TestClock()
                let breaker = Self.breaker(clock)
                let client = Self.client(url, transport, breaker)
                let outage = Endpoint<Item, StudyGroupCode>(.get, "scenarios/outage/b/products/1")
                guard case .http(let unavailable)? = await failure(of: client, outage) else {
                    Issue.record("not an HTTP failure")
                    return
                }
                #expect(unavailable.headerFields[.retryAfter] == "30")
                #expect(Self.circuitOpen(await failure(of: client, outage))?.retryAfter == .seconds(30))
                // 30 s later on both clocks: the outage is over, and the probe closes the circuit.
                await serverClock.advance(by: .seconds(30))
                await clock.advance(by: .seconds(30))
                let item = try await client.send(outage)
                #expect(item == .one)
                #expect(breaker.state(of: "127.0.0.1:\(url.port ?? 0)") == .closed)
                #expect(await backend.hits("/scenarios/outage/b/products/1") == 2)
            }
        }

        @Test("the server preset turns the limit and the breaker on, with .NET's thresholds")
        func serverPreset() throws {
            let pipeline = ClientPipeline.server()
            let limit = try #require(pipeline.concurrencyLimit)
            #expect((limit.maximumConcurrentCalls, limit.maximumQueuedCalls) == (64, 256))
            let breaker = try #require(pipeline.circuitBreaker)
            #expect((breaker.failureRatio, breaker.minimumThroughput, breaker.breakDuration) == (0.1, 100, .seconds(5)))
            #expect(pipeline.timeout == .seconds(30))
            #expect(ClientPipeline().concurrencyLimit == nil && ClientPipeline().circuitBreaker == nil)
        }
    }
}
