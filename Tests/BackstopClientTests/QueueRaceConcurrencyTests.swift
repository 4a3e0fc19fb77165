import Backstop
import BackstopTestSupport
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
                let requests = LockedValue(0)
                let (sent, sending) = AsyncStream<Void>.makeStream()
                let never = TestClock()
                let client = ScriptedTransport.client(quietPipeline { $0.coalescing = coalescing }) { _ in
                    let number = requests.withLock { count in
                        count += 1
                        return count
                    }
                    if number == 1 {
                        sending.yield()
                        // The first request waits until it is cancelled.
                        try await never.sleep(for: .seconds(3600))
                    }
                    return ScriptedTransport.json(.ok, #"{"id": 1}"#)
                }
                let sender = Task { try await client.send(Self.account) }
                var arrivals = sent.makeAsyncIterator()
                _ = await arrivals.next()
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
            let client = ScriptedTransport.client(quietPipeline { $0.concurrencyLimit = limit }) { _ in
                await Task.yield()
                return ScriptedTransport.json(.ok, #"{"id": 1}"#)
            }
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
