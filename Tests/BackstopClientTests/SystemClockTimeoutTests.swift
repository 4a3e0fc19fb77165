import Backstop
import BackstopTestSupport
import Clocks
import Foundation
import Testing

extension BackstopClient {
    /// The timeouts on the system's clocks, as apps run them: their deadlines share one Dispatch
    /// timer instead of a sleeping task per call. The server's slow answers wait on a test clock
    /// nobody advances, so a call ends only by its deadline; each test waits for that end, and
    /// no test asserts how long it took.
    @Suite("Timeouts on the system clock")
    struct SystemClockTimeoutTests {
        /// A client on the system's continuous clock, hedged when asked (a hedged call keeps its
        /// deadline in its race, not in a task of its own), configured further by `configure`.
        static func client(
            _ url: URL, _ transport: TransportKind, hedged: Bool = false, hedgeDelay: Duration = .seconds(20),
            _ configure: (inout ClientPipeline) -> Void
        ) -> APIClient<GeneralCode> {
            makeClient(
                url, transport,
                pipeline: quietPipeline {
                    $0.clock = ContinuousClock()
                    if hedged { $0.hedging = Hedging(delay: hedgeDelay) }
                    configure(&$0)
                })
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(1)), arguments: TransportKind.allCases, [false, true])
        func aCallThatOutlivesItsTimeoutTimesOut(transport: TransportKind, hedged: Bool) async throws {
            try await withBackend { _, url in
                let client = Self.client(url, transport, hedged: hedged, hedgeDelay: .milliseconds(20)) {
                    $0.timeout = .milliseconds(200)
                }
                let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1"))
                #expect(transportReason(of: error) == .timedOut)
                #expect(error?.description.contains("no response within 200 ms") == true, "\(String(describing: error))")
                // Only the call's own work was cancelled, never the caller's task.
                #expect(!Task.isCancelled)
                // The client goes on: a quick answer within the same timeout.
                let item = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                #expect(item == .one)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(1)), arguments: TransportKind.allCases)
        func anAttemptThatOutlivesItsTimeoutIsRetried(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let client = Self.client(url, transport) {
                    $0.attemptTimeout = .milliseconds(100)
                    $0.retry = RetryPolicy(retryLimit: 1, exponentialBackoffScale: .zero)
                }
                let response = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1"))
                #expect(transportReason(of: response) == .timedOut)
                #expect(await backend.hits("/scenarios/slow/b/products/1") == 2)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(1)), arguments: TransportKind.allCases, [false, true])
        func aRetryWaitLongerThanTheTimeoutEndsTheCallAtItsDeadline(transport: TransportKind, hedged: Bool) async throws {
            try await withBackend { backend, url in
                let client = Self.client(url, transport, hedged: hedged, hedgeDelay: .milliseconds(20)) {
                    $0.timeout = .milliseconds(400)
                    $0.attemptTimeout = .milliseconds(100)
                    $0.retry = RetryPolicy(retryLimit: 1, exponentialBackoffScale: .seconds(60))
                }
                let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1"))
                #expect(transportReason(of: error) == .timedOut)
                #expect(error?.description.contains("no response within 400 ms") == true, "\(String(describing: error))")
                // The retry was never sent: the call ended at its deadline, not a minute later.
                #expect(await backend.hits("/scenarios/slow/b/products/1") <= (hedged ? 2 : 1))
                #expect(!Task.isCancelled)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(1)), arguments: TransportKind.allCases, [false, true])
        func cancellingTheCallerEndsATimedCallAsCancelled(transport: TransportKind, hedged: Bool) async throws {
            try await withBackend { backend, url in
                let client = Self.client(url, transport, hedged: hedged) {
                    $0.timeout = .seconds(30)
                }
                let call = Task { await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1")) }
                _ = try await backend.requestLog.arrival()
                call.cancel()
                #expect(transportReason(of: await call.value) == .cancelled)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases, [false, true])
        func callsAnsweredInTimeAnswerAsWithoutATimeout(transport: TransportKind, hedged: Bool) async throws {
            try await withBackend { _, url in
                let client = Self.client(url, transport, hedged: hedged) {
                    $0.timeout = .seconds(30)
                    $0.attemptTimeout = .seconds(30)
                }
                for _ in 0..<20 {
                    let item = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                    #expect(item == .one)
                }
            }
        }
    }
}
