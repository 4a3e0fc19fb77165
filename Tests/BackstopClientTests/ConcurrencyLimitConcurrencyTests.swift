import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// The concurrency limit against BadBackend on 127.0.0.1; CI runs this suite under ThreadSanitizer.
    @Suite("Concurrency limit", .timeLimit(.minutes(1)))
    struct ConcurrencyLimitConcurrencyTests {
        /// Counts the attempts in flight at the transport, and the most at once. An `NSLock`, not
        /// `Mutex`: ThreadSanitizer on Linux does not see `Mutex`'s futex as a lock.
        final class InFlight: ClientMiddleware, @unchecked Sendable {
            private let lock = NSLock()
            private var now = 0
            private var highest = 0
            var most: Int { lock.withLock { highest } }

            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                next: (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
            ) async throws -> (HTTPResponse, HTTPBody?) {
                lock.withLock {
                    now += 1
                    highest = max(highest, now)
                }
                defer { lock.withLock { now -= 1 } }
                return try await next(request, body, baseURL)
            }
        }

        /// BadBackend's `burst` scenario refuses what is beyond its room of 4, measured at the server:
        /// a burst of 20 through a limit of 4 is served whole, without it 16 are refused.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aBurstThroughTheLimitFitsTheServersRoom(transport: TransportKind) async throws {
            let serverClock = TestClock()
            // An advance of 11 s releases the four waiting 10 s, not the four that arrive during it:
            // a test clock also wakes sleepers that start while it moves, so theirs must end beyond it.
            let configuration = BadBackend.Configuration(slowAnswerDelay: .seconds(10))
            try await withBackend(configuration, clock: serverClock) { backend, url in
                let path = "/scenarios/burst/b/products/1"
                let burst = Endpoint<Item, StudyGroupCode>(.get, String(path.dropFirst()))
                let limited = makeClient(
                    url, transport,
                    pipeline: quietPipeline { $0.concurrencyLimit = ConcurrencyLimit(maximumConcurrentCalls: 4, maximumQueuedCalls: 100) })
                let calls = (0..<20).map { _ in Task { await failure(of: limited, burst) } }
                // Four at a time reach the server and wait for its clock; the next four follow.
                for round in 1...5 {
                    _ = try await backend.requestLog.entries(where: { $0.path == path }, atLeast: 4 * round)
                    let hits = await backend.hits(path)
                    #expect(hits == 4 * round, "round \(round)")
                    await serverClock.advance(by: .seconds(11))
                }
                for call in calls { #expect(await call.value == nil) }

                let unlimited = makeClient(url, transport)
                let (finished, finish) = AsyncStream.makeStream(of: StudyGroupError?.self)
                for _ in 0..<20 { Task { finish.yield(await failure(of: unlimited, burst)) } }
                var results = finished.makeAsyncIterator()
                // The refused are answered at once; the clock moves only after them, so the four let
                // in cannot leave while a request that is logged but not yet let in still comes.
                var refused = 0
                for _ in 0..<16 {
                    let result = await results.next()
                    guard case .http(let failure)? = result ?? nil, failure.status == .serviceUnavailable else {
                        Issue.record("expected 503, got \(String(describing: result))")
                        continue
                    }
                    refused += 1
                }
                await serverClock.advance(by: .seconds(11))
                for _ in 0..<4 {
                    let result = await results.next()
                    #expect(result == .some(nil))
                }
                #expect(refused == 16)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func neverMoreThanTheLimitInFlight(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let inFlight = InFlight()
                let limit = ConcurrencyLimit(maximumConcurrentCalls: 3, maximumQueuedCalls: 200)
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.concurrencyLimit = limit
                        $0.middlewares = [inFlight]
                    })
                let items = try await withThrowingTaskGroup(of: Item.self) { group in
                    for id in 1...3 {
                        for _ in 0..<30 {
                            group.addTask { try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/\(id)")) }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(items.count == 90)
                #expect(inFlight.most <= 3)
                #expect(await backend.requestLog.entries.count == 90)
                #expect(limit.load == (0, 0))
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aCallOverTheQueueFailsAtOnce(transport: TransportKind) async throws {
            let serverClock = TestClock()
            try await withBackend(clock: serverClock) { backend, url in
                let limit = ConcurrencyLimit(maximumConcurrentCalls: 1, maximumQueuedCalls: 0)
                let client = makeClient(url, transport, pipeline: quietPipeline { $0.concurrencyLimit = limit })
                // One call in flight, held by the server's clock.
                let running = Task { try await client.send(Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1")) }
                _ = try await backend.requestLog.arrival()
                guard case .client(let full)? = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "b/products/2")) else {
                    Issue.record("not refused")
                    return
                }
                #expect(full.reason == .tooManyCalls)
                #expect(StudyGroupError.client(full).recoveryCategory == .rateLimited)
                await serverClock.advance(by: .seconds(3600))
                #expect(try await running.value == .one)
                #expect(await backend.requestLog.entries.map(\.path) == ["/scenarios/slow/b/products/1"])
            }
        }

        /// The running call waits on the server's clock, which only moves after the waiter ended:
        /// so the waiter ended on its cancellation, not on a turn.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aCancelledWaiterEndsAtOnceAndGivesUpItsPlace(transport: TransportKind) async throws {
            let serverClock = TestClock()
            try await withBackend(clock: serverClock) { backend, url in
                let limit = ConcurrencyLimit(maximumConcurrentCalls: 1, maximumQueuedCalls: 5)
                let client = makeClient(url, transport, pipeline: quietPipeline { $0.concurrencyLimit = limit })
                let running = Task { try await client.send(Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1")) }
                _ = try await backend.requestLog.arrival()
                let waiter = Task { await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "b/products/2")) }
                waiter.cancel()
                #expect(transportReason(of: await waiter.value) == .cancelled)
                #expect(limit.load == (1, 0))
                await serverClock.advance(by: .seconds(3600))
                #expect(try await running.value == .one)
                #expect(limit.load == (0, 0))
                // The place is free again.
                #expect(try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/3")).id == 3)
                #expect(await backend.requestLog.entries.map(\.path) == ["/scenarios/slow/b/products/1", "/b/products/3"])
            }
        }
    }
}
