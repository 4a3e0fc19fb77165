import Backstop
import Synchronization
import Testing

extension BackstopClient {
    /// What ends a transport's exchange from outside its task, alone.
    @Suite("Exchange cancellation")
    struct ExchangeCancellationTests {
        /// An exchange that counts how often it was cancelled.
        final class CountedExchange: CancellableExchange {
            private let count = Mutex(0)
            var cancellations: Int { count.withLock { $0 } }
            func cancel() { count.withLock { $0 += 1 } }
        }

        @Test func cancellingEndsTheExchangeEnteredLastAndOnlyThatOne() {
            let cancellation = ExchangeCancellation()
            let (first, second) = (CountedExchange(), CountedExchange())
            #expect(cancellation.enter(first))
            #expect(cancellation.enter(second))
            #expect(!cancellation.isCancelled)
            cancellation.cancel()
            #expect(cancellation.isCancelled)
            #expect(first.cancellations == 0)
            #expect(second.cancellations == 1)
        }

        @Test func anExchangeEnteredAfterTheCancellationIsEndedAtOnce() {
            let cancellation = ExchangeCancellation()
            cancellation.cancel()
            let late = CountedExchange()
            #expect(!cancellation.enter(late))
            #expect(late.cancellations == 1)
        }

        /// An exchange that has ended is not cancelled again when the race is decided: that would
        /// hand work to another thread for nothing.
        @Test func anExchangeOfAFinishedAttemptIsNotCancelled() {
            let cancellation = ExchangeCancellation()
            let exchange = CountedExchange()
            cancellation.enter(exchange)
            cancellation.finish()
            cancellation.cancel()
            #expect(exchange.cancellations == 0)
            #expect(cancellation.isCancelled)
        }

        @Test func cancellingTwiceEndsTheExchangeOnce() {
            let cancellation = ExchangeCancellation()
            let exchange = CountedExchange()
            cancellation.enter(exchange)
            cancellation.cancel()
            cancellation.cancel()
            #expect(exchange.cancellations == 1)
        }

        @Test func cancellationsRacingEntriesEndEveryExchangeEnteredLate() async {
            for _ in 0..<200 {
                let cancellation = ExchangeCancellation()
                let exchanges = (0..<4).map { _ in CountedExchange() }
                await withTaskGroup(of: Bool.self) { group in
                    for exchange in exchanges { group.addTask { cancellation.enter(exchange) } }
                    group.addTask {
                        cancellation.cancel()
                        return true
                    }
                    await group.waitForAll()
                }
                // Whatever the order, the exchange entered last before the cancellation and every
                // one entered after it are ended, each once.
                #expect(exchanges.contains { $0.cancellations == 1 })
                #expect(exchanges.allSatisfy { $0.cancellations <= 1 })
            }
        }
    }
}
