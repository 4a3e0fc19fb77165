import Backstop
import BackstopTestSupport
import BackstopTesting
import BadBackend
import Clocks
import Foundation
import HTTPTypes
import Testing

extension BackstopClient {
    /// Event streams with any number of observers, and none; CI runs this suite under ThreadSanitizer.
    @Suite("Event streams", .timeLimit(.minutes(1)))
    struct EventStreamConcurrencyTests {
        /// The first `count` events of `stream`.
        static func first<Event: Sendable>(_ count: Int, of stream: AsyncStream<Event>) async -> [Event] {
            var events: [Event] = []
            for await event in stream {
                events.append(event)
                if events.count == count { break }
            }
            return events
        }

        @Test func everySubscriptionHearsEveryEventInOrder() async {
            let broadcast = EventBroadcast<Int>()
            let (one, two) = (broadcast.subscribe(), broadcast.subscribe())
            #expect(broadcast.subscriptions == 2)
            let publishing = Task { for number in 1...50 { broadcast.publish(number) } }
            async let heardByOne = Self.first(50, of: one)
            async let heardByTwo = Self.first(50, of: two)
            #expect(await heardByOne == Array(1...50))
            #expect(await heardByTwo == Array(1...50))
            await publishing.value
        }

        @Test func anEventNobodyReadsIsKeptByNobodyAndAnUnreadStreamKeepsOnlyTheNewest() async {
            let broadcast = EventBroadcast<Int>()
            // Nobody subscribed: kept by nobody, so a later subscription starts after it.
            broadcast.publish(0)
            let unread = broadcast.subscribe()
            for number in 1...1_000 { broadcast.publish(number) }
            broadcast.finish()
            var kept: [Int] = []
            for await number in unread { kept.append(number) }
            #expect(kept == Array((1_001 - EventBroadcast<Int>.bufferSize)...1_000))
        }

        @Test func aDroppedOrCancelledStreamStopsBeingFed() async {
            let broadcast = EventBroadcast<Int>()
            do { _ = broadcast.subscribe() }
            #expect(broadcast.subscriptions == 0)
            let reading = Task { await Self.first(10, of: broadcast.subscribe()) }
            while broadcast.subscriptions < 1, !Task.isCancelled { await Task.yield() }
            reading.cancel()
            _ = await reading.value
            #expect(broadcast.subscriptions == 0)
            // A subscription made once the broadcast ended ends at once.
            broadcast.finish()
            #expect(await Self.first(1, of: broadcast.subscribe()).isEmpty)
        }

        /// A breaker in memory whose backend answers 503: two observers each hear its opening; one
        /// that subscribes afterwards hears only what comes next.
        @Test func twoObserversOfABreakerEachHearEveryTransition() async throws {
            let clock = TestClock()
            let breaker = CircuitBreaker(failureRatio: 0.5, minimumThroughput: 4, breakDuration: .seconds(15), clock: clock, logger: nil)
            let (one, two) = (breaker.transitions, breaker.transitions)
            let transport = StubTransport()
            transport.stub(.get, "account", .json("{}", status: .serviceUnavailable))
            let client = makeClient(transport, pipeline: quietPipeline { $0.circuitBreaker = breaker })
            let outage = Endpoint<Account, NoModuleCodes>(.get, "account")
            for _ in 0..<4 { _ = await failure(of: client, outage) }
            let late = breaker.transitions
            await clock.advance(by: .seconds(15))
            _ = await failure(of: client, outage)  // the probe, which fails
            let expected = [("closed", "open"), ("open", "halfOpen"), ("halfOpen", "open")]
            for stream in [one, two] {
                #expect(await Self.first(3, of: stream).map { [$0.from.rawValue, $0.to.rawValue] } == expected.map { [$0.0, $0.1] })
            }
            #expect(await Self.first(2, of: late).map(\.to) == [.halfOpen, .open])
        }

        /// A session whose refresh is refused for good: both observers hear the one sign-out.
        @Test func twoObserversOfASessionEachHearTheSignOut() async throws {
            struct Refused: Authenticator {
                func apply(_ credential: String, to request: inout HTTPRequest) {
                    request.headerFields[.authorization] = "Bearer \(credential)"
                }
                func refresh(_ credential: String) async throws -> String { throw AuthenticationError(ClientFailure(.signedOut)) }
            }
            let session = AuthSession(authenticator: Refused(), credential: "stale", clock: TestClock())
            let (one, two) = (session.signedOutEvents, session.signedOutEvents)
            let transport = StubTransport()
            transport.stub(.get, "account", .json("{}", status: .unauthorized))
            let client = makeClient(transport, pipeline: quietPipeline { $0.authentication = .session(session) })
            let error = await failure(of: client, Endpoint<Account, NoModuleCodes>(.get, "account"))
            #expect(error?.clientReason == .tokenRefreshFailed)
            #expect(await Self.first(1, of: one).map(\.reason) == [.refreshFailed])
            #expect(await Self.first(1, of: two).map(\.reason) == [.refreshFailed])
        }

        /// Two clients on copies of one pipeline share its `GeneralCodeEvents`' episodes: the
        /// second client's maintenance answer is the same episode, and raises no second event.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func copiesOfAPipelineShareGeneralCodeEpisodesAndEveryObserverHearsThem(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let pipeline = quietPipeline { $0.generalCodes = GeneralCodeEvents(roles: [.maintenance, .rateLimited]) }
                let copy = pipeline
                let general = try #require(copy.generalCodes)
                let (one, two) = (general.events, general.events)
                let (first, second) = (makeClient(url, transport, pipeline: pipeline), makeClient(url, transport, pipeline: copy))
                let maintenance = Endpoint<Item, StudyGroupCode>(
                    .get, "scenarios/maintenance/b/products/1", query: [URLQueryItem(name: "status", value: "503")])
                #expect(await failure(of: first, maintenance)?.role == .maintenance)
                #expect(await failure(of: second, maintenance)?.role == .maintenance)
                // Another role's episode marks the end of the events to read.
                #expect(
                    await failure(of: second, Endpoint<Item, StudyGroupCode>(.get, "scenarios/rate-limited/b/products/1"))?.role
                        == .rateLimited)
                #expect(await Self.first(2, of: one) == [.maintenance, .rateLimited])
                #expect(await Self.first(2, of: two) == [.maintenance, .rateLimited])
            }
        }
    }
}
