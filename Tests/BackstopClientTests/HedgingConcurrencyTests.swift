import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import InMemoryLogging
import Logging
import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// Hedged attempts racing against BadBackend; CI runs this suite under ThreadSanitizer.
    @Suite("Hedging", .timeLimit(.minutes(1)))
    struct HedgingConcurrencyTests {
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aSlowGETIsSentAgainAfterTheDelayAndTheFirstAnswerWins(transport: TransportKind) async throws {
            let fixture = HedgingFixture()
            try await fixture.withBackend { backend, url in
                let client = fixture.client(url, transport)
                let path = "/scenarios/slow/b/products/1"
                let call = Task { try await client.send(Endpoint<Item, StudyGroupCode>(.get, String(path.dropFirst()))) }
                _ = try await backend.requestLog.arrival(where: { $0.path == path })
                await fixture.clock.advance(by: .seconds(2))
                // The hedge: the same request, a second time, while the first still waits.
                _ = try await backend.requestLog.entries(where: { $0.path == path }, atLeast: 2)
                await fixture.serverClock.advance(by: .seconds(3600))
                #expect(try await call.value == .one)
                #expect(await backend.hits(path) == 2)
                let line = try #require(fixture.logs.entries.last)
                #expect(line.metadata["attempts"] == "2")
                #expect(line.metadata["retries"] == "hedge")
            }
        }

        /// With nothing in front of the transport, the first request runs in the caller's task,
        /// and the transport ends it from outside when the hedge wins: each run's first request
        /// waits on the server's clock until the call is over, so the call can return only because
        /// its first exchange was cancelled.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aHedgeThatWinsEndsTheFirstRequestRunInTheCallersTask(transport: TransportKind) async throws {
            let fixture = HedgingFixture(delay: .milliseconds(50))
            try await fixture.withBackend { backend, url in
                let client = fixture.client(url, transport) { $0.retryBudget = .unlimited }
                for run in 1...20 {
                    // The server counts a path's attempts across runs: each run's first is slow, its hedge is not.
                    let sent = "/scenarios/slow/b/products/1?failures=\(2 * run - 1)"
                    let endpoint = Endpoint<Item, StudyGroupCode>(
                        .get, "scenarios/slow/b/products/1", query: [URLQueryItem(name: "failures", value: "\(2 * run - 1)")])
                    let call = Task { try await client.send(endpoint) }
                    _ = try await backend.requestLog.arrival(where: { $0.path == sent })
                    await fixture.clock.advance(by: .milliseconds(60))
                    #expect(try await call.value == .one)
                    #expect(await backend.requestLog.entries.count { $0.path == sent } == 2)
                    let line = try #require(fixture.logs.entries.last)
                    #expect(line.metadata["attempts"] == "2")
                    #expect(line.metadata["retries"] == "hedge")
                    await fixture.serverClock.advance(by: .seconds(3600))
                }
            }
        }

        /// The attempts are not the call's children, so its cancellation must reach them itself:
        /// both answers wait on the server's clock, which never moves, so the call can end only
        /// because its first request and its hedge were cancelled with it (the time limit stops a hang).
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases, [false, true])
        func cancellingAHedgedCallEndsItAtOnceAsCancelled(transport: TransportKind, afterTheHedge: Bool) async throws {
            let fixture = HedgingFixture()
            try await fixture.withBackend { backend, url in
                let client = fixture.client(url, transport)
                let path = "/scenarios/slow/b/products/1"
                let call = Task { await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, String(path.dropFirst()))) }
                _ = try await backend.requestLog.arrival(where: { $0.path == path })
                if afterTheHedge {
                    await fixture.clock.advance(by: .seconds(2))
                    _ = try await backend.requestLog.entries(where: { $0.path == path }, atLeast: 2)
                }
                call.cancel()
                #expect(transportReason(of: await call.value) == .cancelled)
                #expect(await backend.hits(path) == (afterTheHedge ? 2 : 1))
            }
        }

        /// On the system's clock the hedge's timer is a Dispatch timer, not a task: a delay of a
        /// millisecond of real time, against a first answer the server's clock holds back.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func onTheSystemClockTheHedgeIsDueAfterTheDelay(transport: TransportKind) async throws {
            try await withBackend(clock: TestClock()) { backend, url in
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.hedging = Hedging(delay: .milliseconds(1))
                        $0.clock = ContinuousClock()
                    })
                // Only the path's first answer is slow, and the server's clock never moves: the
                // call can end only by its hedge.
                let item = try await client.send(
                    Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1", query: [URLQueryItem(name: "failures", value: "1")])
                )
                #expect(item == .one)
                #expect(await backend.hits("/scenarios/slow/b/products/1") == 2)
            }
        }

        /// The calls of one `Hedging` share one Dispatch timer, set for the earliest deadline: a
        /// deadline earlier than every pending one must still be heard at its time, and calls
        /// answered in time take theirs out again.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func onTheSystemClockAnEarlierDeadlineIsHeardBeforeALaterOne(transport: TransportKind) async throws {
            try await withBackend(clock: TestClock()) { backend, url in
                let hedging = Hedging(percentile: 50, minimum: .milliseconds(1), fallback: .seconds(3600))
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.hedging = hedging
                        $0.clock = ContinuousClock()
                    })
                // A call whose hedge is due in an hour, held by the server's clock, which never moves.
                let waiting = "/scenarios/slow/b/products/2"
                let held = Task {
                    try await client.send(Endpoint<Item, StudyGroupCode>(.get, String(waiting.dropFirst()), operationID: "held"))
                }
                _ = try await backend.requestLog.arrival(where: { $0.path == waiting })
                // Twenty calls answered in time teach "fast" its latency: milliseconds.
                for _ in 0..<20 {
                    _ = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1", operationID: "fast"))
                }
                #expect(hedging.delay(for: "fast") < .seconds(1))
                // Held back at first like the other, this one can end only by its hedge, due long
                // before the hour the timer was set for.
                let item = try await client.send(
                    Endpoint<Item, StudyGroupCode>(
                        .get, "scenarios/slow/b/products/1", query: [URLQueryItem(name: "failures", value: "1")], operationID: "fast")
                )
                #expect(item == .one)
                #expect(await backend.hits("/scenarios/slow/b/products/1") == 2)
                #expect(await backend.hits(waiting) == 1)
                held.cancel()
                let error = await #expect(throws: StudyGroupError.self) { try await held.value }
                #expect(transportReason(of: error) == .cancelled)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aFastAnswerNeedsNoHedge(transport: TransportKind) async throws {
            let fixture = HedgingFixture()
            try await fixture.withBackend { backend, url in
                let client = fixture.client(url, transport)
                let item = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                #expect(item == .one)
                await fixture.clock.advance(by: .seconds(10))
                #expect(await backend.hits("/b/products/1") == 1)
            }
        }

        /// The POST is as slow as the GET that ``aSlowGETIsSentAgainAfterTheDelayAndTheFirstAnswerWins``
        /// hedges: held by the server's clock while the client's passes the hedge's delay fivefold,
        /// so a hedge would be due. It answers only after that, with one attempt.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aSlowPOSTIsNeverHedged(transport: TransportKind) async throws {
            let fixture = HedgingFixture()
            try await fixture.withBackend { backend, url in
                let client = fixture.client(url, transport)
                let path = "/scenarios/slow/b/echo"
                let post = Task {
                    try await client.send(Endpoint<Echo<[String: Int]>, StudyGroupCode>(.post, String(path.dropFirst()), body: ["a": 1]))
                }
                _ = try await backend.requestLog.arrival(where: { $0.path == path })
                await fixture.clock.advance(by: .seconds(10))
                await fixture.serverClock.advance(by: .seconds(3600))
                #expect(try await post.value.method == "POST")
                #expect(await backend.hits(path) == 1)
                let line = try #require(fixture.logs.entries.last)
                #expect(line.metadata["attempts"] == "1")
            }
        }

        /// A call cancelled before it is made sends nothing: its first attempt, a task of its own,
        /// does not inherit the cancellation, so it must look for it. `APIClient` checks before the
        /// pipeline; a generated client's call reaches the hedging stage cancelled.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aGeneratedCallCancelledBeforeItStartsSendsNothing(transport: TransportKind) async throws {
            let fixture = HedgingFixture()
            try await fixture.withBackend { backend, url in
                let middleware = PipelineMiddleware(fixture.pipeline(), contract: EnvelopeContract.b, generalCodes: GeneralCode.self)
                let (sender, counter) = (transport.make(), AttemptCounter())
                let call = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await middleware.intercept(
                        HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/b/products/1"), body: nil, baseURL: url,
                        operationID: "getItem"
                    ) { request, body, url in
                        try await counter.intercept(request, body: body, baseURL: url, operationID: "getItem") { request, body, url in
                            try await sender.send(request, body: body, baseURL: url, operationID: "getItem")
                        }
                    }
                }
                let error = await #expect(throws: (any Error).self) { try await call.value }
                #expect(error.map { TransportFailure($0).reason } == .cancelled, "\(String(describing: error))")
                #expect(counter.attempts == 0)
                #expect(await backend.hits("/b/products/1") == 0)
            }
        }

        /// The winner's answer is the call's at once: the call does not wait for the other
        /// request to end, here one that does not even hear its cancellation until released.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func theFirstAnswerEndsTheCallWithoutWaitingForTheOtherRequest(transport: TransportKind) async throws {
            let fixture = HedgingFixture()
            try await fixture.withBackend { backend, url in
                let holdsFirst = HoldsFirst()
                let client = fixture.client(url, transport) { $0.middlewares = [holdsFirst] }
                let call = Task { try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1")) }
                var held = holdsFirst.held.makeAsyncIterator()
                _ = await held.next()
                await fixture.clock.advance(by: .seconds(2))
                let item = try await call.value
                #expect(item == .one)
                #expect(await backend.hits("/b/products/1") == 1)
                holdsFirst.release()
            }
        }

        /// Holds the first request until released, deaf to its cancellation; lets the others by.
        final class HoldsFirst: ClientMiddleware, @unchecked Sendable {
            let (held, holding) = AsyncStream<Void>.makeStream()
            private let lock = NSLock()
            private var requests = 0
            private var gate: CheckedContinuation<Void, Never>?
            private var isReleased = false

            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
            ) async throws -> (HTTPResponse, HTTPBody?) {
                let isFirst = lock.withLock {
                    requests += 1
                    return requests == 1
                }
                guard isFirst else { return try await next(request, body, baseURL) }
                await withCheckedContinuation { gate in
                    let open = lock.withLock {
                        self.gate = gate
                        return isReleased
                    }
                    holding.yield()
                    if open { gate.resume() }
                }
                throw CancellationError()
            }

            func release() {
                let gate = lock.withLock {
                    isReleased = true
                    defer { self.gate = nil }
                    return self.gate
                }
                gate?.resume()
            }
        }

        /// A test clock whose sleeps are recorded: the deadlines asked for, and those that passed.
        final class WatchedClock: Clock, @unchecked Sendable {
            typealias Duration = Swift.Duration
            typealias Instant = TestClock<Swift.Duration>.Instant
            let base: TestClock<Swift.Duration>
            private let lock = NSLock()
            private var asked: [Instant] = []
            private var passed: [Instant] = []

            init(_ base: TestClock<Swift.Duration>) { self.base = base }

            var now: Instant { base.now }
            var minimumResolution: Duration { base.minimumResolution }
            /// Every deadline a sleep was asked for.
            var deadlines: [Instant] { lock.withLock { asked } }
            /// The deadlines of the sleeps that returned because they passed.
            var woken: [Instant] { lock.withLock { passed } }

            func sleep(until deadline: Instant, tolerance: Duration?) async throws {
                lock.withLock { asked.append(deadline) }
                try await base.sleep(until: deadline, tolerance: tolerance)
                lock.withLock { passed.append(deadline) }
            }
        }

        /// Makes each attempt take the next of `latencies` on `clock`, then none.
        final class Latency: ClientMiddleware, @unchecked Sendable {
            let clock: TestClock<Duration>
            private let lock = NSLock()
            private var latencies: [Duration]

            init(clock: TestClock<Duration>, latencies: [Duration]) {
                self.clock = clock
                self.latencies = latencies
            }

            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
            ) async throws -> (HTTPResponse, HTTPBody?) {
                let latency: Duration? = lock.withLock { latencies.isEmpty ? nil : latencies.removeFirst() }
                if let latency { await clock.advance(by: latency) }
                return try await next(request, body, baseURL)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aPercentileDelayLearnsEachOperationsLatencies(transport: TransportKind) async throws {
            let fixture = HedgingFixture()
            try await fixture.withBackend { backend, url in
                let (clock, serverClock) = (fixture.clock, fixture.serverClock)
                let watched = WatchedClock(clock)
                let hedging = Hedging(percentile: 90, minimum: .milliseconds(50), fallback: .seconds(5))
                // 10, 20 … 200 ms for "product", then 10 ms twenty times for "fast".
                let latencies = (1...20).map { Duration.milliseconds(10 * $0) } + Array(repeating: .milliseconds(10), count: 20)
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.hedging = hedging
                        $0.clock = watched
                        $0.middlewares = [Latency(clock: clock, latencies: latencies)]
                    })
                let product = Endpoint<Item, StudyGroupCode>(.get, "b/products/1", operationID: "product")
                #expect(hedging.delay(for: "product") == .seconds(5))
                for _ in 0..<19 { _ = try await client.send(product) }
                #expect(hedging.delay(for: "product") == .seconds(5))  // 19 answers: not enough yet
                _ = try await client.send(product)
                #expect(hedging.delay(for: "product") == .milliseconds(180))  // the 18th of 20, nearest rank
                for _ in 0..<20 { _ = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1", operationID: "fast")) }
                #expect(hedging.delay(for: "fast") == .milliseconds(50))  // 10 ms, raised to the minimum
                #expect(hedging.delay(for: "never called") == .seconds(5))
                #expect(await backend.hits("/b/products/1") == 40)

                // A slow answer to "product" is hedged once its 90th percentile has passed.
                let path = "/scenarios/slow/b/products/1"
                let start = clock.now
                let (asked, passed) = (watched.deadlines.count, watched.woken.count)
                let call = Task {
                    try await client.send(Endpoint<Item, StudyGroupCode>(.get, String(path.dropFirst()), operationID: "product"))
                }
                _ = try await backend.requestLog.arrival(where: { $0.path == path })
                // The synchronisation point: the hedge's timer, set for 180 ms after the call began
                // and for no earlier time, so the clock at 179 ms has not woken it.
                let due = start.advanced(by: .milliseconds(180))
                while !watched.deadlines.dropFirst(asked).contains(due), !Task.isCancelled { await Task.yield() }
                #expect(watched.deadlines.dropFirst(asked).allSatisfy { $0 >= due })
                await clock.advance(by: .milliseconds(179))
                #expect(watched.woken.count == passed)
                #expect(await backend.hits(path) == 1)
                await clock.advance(by: .milliseconds(1))
                _ = try await backend.requestLog.entries(where: { $0.path == path }, atLeast: 2)
                await serverClock.advance(by: .seconds(3600))
                #expect(try await call.value == .one)
                #expect(await backend.hits(path) == 2)
            }
        }
    }
}
