import Backstop
import BackstopTestSupport
import BackstopTesting
import BadBackend
import Clocks
import Foundation
import Testing

extension BackstopClient {
    /// The races the waiter queues once had, driven in memory many times; CI runs this suite
    /// under ThreadSanitizer.
    @Suite("Waiter queue races", .timeLimit(.minutes(1)))
    struct QueueRaceConcurrencyTests {
        static let account = Endpoint<Account, NoModuleCodes>(.get, "account")

        /// A caller that joins a coalesced flight as the caller that sent it is cancelled is a
        /// waiter from the moment it joins: it inherits the exchange, or starts its own, and never
        /// hears the other caller's cancellation, however the two interleave.
        @Test func aJoinerRacingTheSendersCancellationGetsAnAnswer() async throws {
            for _ in 0..<200 {
                let coalescing = RequestCoalescing()
                // The first request waits, on a clock nobody advances, until it is cancelled.
                let transport = StubTransport(clock: TestClock())
                transport.stub(.get, "account", .json(#"{"id": 1}"#).delayed(by: .seconds(3600)), .json(#"{"id": 1}"#))
                let client = makeClient(transport, pipeline: quietPipeline { $0.coalescing = coalescing })
                let sender = Task { try await client.send(Self.account) }
                _ = try await transport.requests(atLeast: 1)
                let joiner = Task { try await client.send(Self.account) }
                sender.cancel()
                #expect(try await joiner.value == Account(id: 1))
                _ = try? await sender.value
                #expect(coalescing.load == (0, 0))
                #expect(coalescing.queuedTickets == 0)
            }
        }

        /// Calls through a limit of one, a queue of four, cancelled at random before, while and
        /// after they wait: each ends (answered, cancelled or refused), and the limit ends empty,
        /// its queue without a leftover place.
        @Test func cancellationsAtEveryMomentLeaveTheLimitEmpty() async throws {
            let limit = ConcurrencyLimit(maximumConcurrentCalls: 1, maximumQueuedCalls: 4)
            // Each answer suspends the call once: a delay on a clock that never waits.
            let transport = StubTransport(clock: ImmediateClock())
            transport.stub(.get, "account", .json(#"{"id": 1}"#).delayed(by: .nanoseconds(1)))
            let client = makeClient(transport, pipeline: quietPipeline { $0.concurrencyLimit = limit })
            let calls = (0..<300).map { index in
                Task {
                    if index % 5 == 0 { withUnsafeCurrentTask { $0?.cancel() } }
                    return await failure(of: client, Self.account)
                }
            }
            for (index, call) in calls.enumerated() where index % 3 == 0 { call.cancel() }
            var outcomes: [String: Int] = [:]
            for call in calls {
                let error = await call.value
                let outcome =
                    switch error {
                    case nil: "answered"
                    case .transport(let failure)? where failure.reason == .cancelled: "cancelled"
                    case .client(let failure)? where failure.reason == .tooManyCalls: "refused"
                    default: "\(String(describing: error))"
                    }
                outcomes[outcome, default: 0] += 1
            }
            #expect(Set(outcomes.keys).isSubset(of: ["answered", "cancelled", "refused"]), "\(outcomes)")
            #expect(outcomes["answered", default: 0] > 0)
            #expect(limit.load == (0, 0))
            #expect(limit.queuedTickets == 0)
        }
    }
}
