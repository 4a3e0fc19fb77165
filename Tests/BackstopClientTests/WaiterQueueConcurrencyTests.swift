import Backstop
import Testing

extension BackstopClient {
    /// The one cancellable-waiter primitive, alone; CI runs this suite under ThreadSanitizer.
    @Suite("Waiter queue", .timeLimit(.minutes(1)))
    struct WaiterQueueConcurrencyTests {
        /// A queue behind its lock, as its owners keep one.
        final class Queue: Sendable {
            let state = LockedValue(WaiterQueue<String>())

            func enroll() -> WaiterQueue<String>.Ticket { state.withLock { $0.enroll() } }
            func wait(_ ticket: WaiterQueue<String>.Ticket) async throws -> String {
                try await state.wait(for: ticket) { queue, body in body(&queue) }
            }
            func resumeFirst(_ value: String) -> Bool {
                let (found, wake) = state.withLock { $0.resumeFirst(with: value) }
                wake?.resume()
                return found
            }
            func resumeAll(_ value: String) {
                for wake in state.withLock({ $0.resumeAll(with: value) }) { wake.resume() }
            }
            var waiting: Int { state.withLock { $0.count } }
            var suspended: Int { state.withLock { $0.suspended } }
            var tickets: Int { state.withLock { $0.tickets } }

            /// Waits until `count` waiters have suspended, or the time limit cancels the test.
            func untilSuspended(_ count: Int) async {
                while suspended < count, !Task.isCancelled { await Task.yield() }
            }
        }

        @Test func aWaiterCancelledBeforeItWaitsThrowsCancellationAndLeavesNothing() async {
            let queue = Queue()
            let ticket = queue.enroll()
            let waiter = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await queue.wait(ticket)
            }
            await #expect(throws: CancellationError.self) { try await waiter.value }
            #expect(queue.tickets == 0)
            // Nobody is left to give a value to.
            #expect(!queue.resumeFirst("late"))
        }

        @Test func aWaiterCancelledWhileItWaitsThrowsAtOnceAndLeavesNothing() async {
            let queue = Queue()
            let ticket = queue.enroll()
            let waiter = Task { try await queue.wait(ticket) }
            await queue.untilSuspended(1)
            waiter.cancel()
            await #expect(throws: CancellationError.self) { try await waiter.value }
            #expect(queue.tickets == 0)
            #expect(queue.waiting == 0)
        }

        @Test func aWaiterCancelledAfterItWasGivenAValueGetsTheValue() async throws {
            let queue = Queue()
            // Given before it suspended, then cancelled before it waits: the value wins.
            let early = queue.enroll()
            #expect(queue.resumeFirst("early"))
            let first = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await queue.wait(early)
            }
            #expect(try await first.value == "early")
            // Given while it waits, then cancelled: the value wins too.
            let late = queue.enroll()
            let second = Task { try await queue.wait(late) }
            await queue.untilSuspended(1)
            #expect(queue.resumeFirst("late"))
            second.cancel()
            #expect(try await second.value == "late")
            #expect(queue.tickets == 0)
        }

        /// The heir is the longest-waiting caller not cancelled: here the first is cancelled, the
        /// second has suspended, the third has not yet.
        @Test func theHeirIsTheLongestWaitingCallerThatIsNotCancelled() async throws {
            let queue = Queue()
            let tickets = (0..<3).map { _ in queue.enroll() }
            let cancelled = Task { try await queue.wait(tickets[0]) }
            let second = Task { try await queue.wait(tickets[1]) }
            await queue.untilSuspended(2)
            cancelled.cancel()
            await #expect(throws: CancellationError.self) { try await cancelled.value }
            #expect(queue.resumeFirst("lead"))
            #expect(try await second.value == "lead")
            #expect(queue.waiting == 1)
            // The third, enrolled but not suspended, is the next heir; its value waits for it.
            #expect(queue.resumeFirst("lead again"))
            #expect(try await Task { try await queue.wait(tickets[2]) }.value == "lead again")
            #expect(queue.tickets == 0)
        }

        /// A caller that joined but has not suspended yet when the leader leaves is a waiter
        /// already: it inherits the lead instead of hearing the leader's cancellation.
        @Test func aJoinerNotYetSuspendedInheritsTheLeadersPlace() async throws {
            for _ in 0..<200 {
                let queue = Queue()
                let leaderLeft = AsyncStream<Void>.makeStream()
                let joiner = Task {
                    let ticket = queue.enroll()
                    leaderLeft.continuation.yield()
                    return try await queue.wait(ticket)
                }
                // The leader leaves as the joiner enrols, racing its suspension.
                var left = leaderLeft.stream.makeAsyncIterator()
                _ = await left.next()
                let found = queue.resumeFirst("lead")
                #expect(found)
                #expect(try await joiner.value == "lead")
                #expect(queue.tickets == 0)
            }
        }

        @Test func resumingAllAnswersTheSuspendedAndTheNotYetSuspended() async throws {
            let queue = Queue()
            let suspendedTicket = queue.enroll()
            let suspended = Task { try await queue.wait(suspendedTicket) }
            await queue.untilSuspended(1)
            let lateTicket = queue.enroll()
            queue.resumeAll("answer")
            #expect(queue.waiting == 0)
            #expect(try await suspended.value == "answer")
            #expect(try await queue.wait(lateTicket) == "answer")
            #expect(queue.tickets == 0)
        }

        /// Hundreds of waiters, cancelled at random while others are answered one by one and then
        /// all at once: each returns a value or throws `CancellationError`, and no ticket is left.
        @Test func cancellationsRacingAnswersLeaveNoTicketBehind() async throws {
            let queue = Queue()
            let enrolled = LockedValue(0)
            let waiters = (0..<300).map { index in
                Task { () -> String? in
                    let ticket = queue.enroll()
                    enrolled.withLock { $0 += 1 }
                    if index % 3 == 0 { await Task.yield() }
                    do { return try await queue.wait(ticket) } catch is CancellationError { return nil }
                }
            }
            for (index, waiter) in waiters.enumerated() where index % 2 == 0 { waiter.cancel() }
            for _ in 0..<100 { _ = queue.resumeFirst("one") }
            while enrolled.withLock({ $0 }) < waiters.count, !Task.isCancelled { await Task.yield() }
            queue.resumeAll("all")
            var answered = 0
            for waiter in waiters where try await waiter.value != nil { answered += 1 }
            // The 150 never cancelled are answered, one way or the other.
            #expect(answered >= 150)
            #expect(queue.tickets == 0)
            #expect(queue.waiting == 0)
        }
    }
}
