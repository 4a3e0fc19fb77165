import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// Many calls at once, bounded in time (the time limit only stops a hang). Run alone (the
    /// parent suite is serialized), so 1,000 calls do not starve the other suites.
    @Suite("Stress", .timeLimit(.minutes(1)))
    struct StressTests {
        /// Every call must end as cancelled. The slow answers wait on the server's test clock,
        /// which nobody advances, and a call with the 30 s timeout that missed the cancellation
        /// would end as `timedOut`: so each `cancelled` proves the cancellation ended it. How fast
        /// is measured, not asserted (on an idle 2-core machine the 1,000 calls end in 0.3–1.0 s).
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases, [nil, Duration.seconds(30)])
        func cancellingAThousandCallsInFlightEndsThemAllAsCancelled(transport: TransportKind, timeout: Duration?) async throws {
            let reasons = try await withBackend { _, url in
                await Self.cancelAThousandCallsInFlight(url, transport, timeout: timeout)
            }
            #expect(reasons.count == 1_000)
            #expect(reasons.allSatisfy { $0 == .cancelled })
        }

        /// Hands 1,000 calls to the transport, cancels them all, and answers how they ended.
        static func cancelAThousandCallsInFlight(
            _ url: URL, _ transport: TransportKind, timeout: Duration?
        ) async -> [TransportFailure.Reason?] {
            let (sent, sending) = AsyncStream<Void>.makeStream()
            let client = makeClient(
                url, transport,
                pipeline: quietPipeline {
                    $0.middlewares = [Handoff(sending)]
                    $0.timeout = timeout
                })
            let endpoint = Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1")
            return await withTaskGroup(of: TransportFailure.Reason?.self) { group in
                for _ in 0..<1_000 {
                    group.addTask { transportReason(of: await failure(of: client, endpoint)) }
                }
                // Every call has been handed to the transport.
                var handedOver = 0
                for await _ in sent {
                    handedOver += 1
                    if handedOver == 1_000 { break }
                }
                group.cancelAll()
                var reasons: [TransportFailure.Reason?] = []
                for await reason in group { reasons.append(reason) }
                // The group has returned: no call's task is left running.
                return reasons
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aFailingBackendGetsNoMoreRetriesThanTheBudget(transport: TransportKind) async throws {
            // The log must hold every request to count them: more than its default 1,000.
            try await withBackend(BadBackend.Configuration(maximumLoggedRequests: 4_000)) { backend, url in
                let budget = RetryBudget()
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.retry = .default
                        $0.retryBudget = budget
                        $0.clock = ImmediateClock()
                    })
                let endpoint = RetryTests.statusEndpoint(code: 503, failures: .max)
                let layers = await withTaskGroup(of: StudyGroupError.Layer?.self) { group in
                    for _ in 0..<1_000 {
                        group.addTask { await failure(of: client, endpoint)?.layer }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                let extra = await backend.hits(RetryTests.statusPath(503)) - 1_000
                #expect(layers.count == 1_000)
                #expect(layers.allSatisfy { $0 == .http })
                // At most the reserve plus the share of the 1,000 requests; without a budget, 2,000.
                #expect(extra <= budget.reserve + Int(budget.share * 1_000))
                #expect(extra > 0)
            }
        }
    }
}
