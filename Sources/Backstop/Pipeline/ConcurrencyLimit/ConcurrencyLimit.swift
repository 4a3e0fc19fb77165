import Foundation

/// The concurrency-limit stage of a ``ClientPipeline`` (a bulkhead): at most
/// ``maximumConcurrentCalls`` calls in flight, the next ``maximumQueuedCalls`` waiting in order.
///
/// Rules a test can check:
/// - A call starts at once while fewer than ``maximumConcurrentCalls`` run; otherwise it waits
///   its turn, first come first served, and starts when a running call ends.
/// - A waiting call whose task is cancelled ends at once, as `.transport` `cancelled`, without
///   waiting for a running call to end.
/// - A call that finds the queue full fails at once as `.client`
///   ``ClientFailure/Reason/tooManyCalls`` (recovery category ``RecoveryCategory/rateLimited``).
/// - Waiting does not count against ``ClientPipeline/timeout``: the limit sits outside it.
///
/// Off by default for apps, whose calls are few. A server that calls a slow backend needs it:
/// without one, a burst queues in the transport's connection pool until the pool times out.
public final class ConcurrencyLimit: Sendable {
    /// The most calls in flight at once.
    public let maximumConcurrentCalls: Int
    /// The most calls waiting for a turn; one more fails at once.
    public let maximumQueuedCalls: Int

    private let state = LockedValue(Slots())

    private struct Slots {
        var running = 0
        var waiting = WaiterQueue<Void>()
    }

    /// A limit; share one instance between the pipelines it bounds together: it is a reference,
    /// so every copy of a ``ClientPipeline`` holding it shares its slots and its queue.
    ///
    /// - Parameters:
    ///   - maximumConcurrentCalls: The most calls in flight at once; at least 1.
    ///   - maximumQueuedCalls: The most calls waiting for a turn, at least 0; 0 fails every
    ///     call over the limit.
    /// - Precondition: `maximumConcurrentCalls >= 1` and `maximumQueuedCalls >= 0`; anything
    ///   else is a programmer error that stops the program here, not a value quietly changed.
    public init(maximumConcurrentCalls: Int, maximumQueuedCalls: Int = 100) {
        precondition(
            maximumConcurrentCalls >= 1, "ConcurrencyLimit: maximumConcurrentCalls must be at least 1, not \(maximumConcurrentCalls)")
        precondition(maximumQueuedCalls >= 0, "ConcurrencyLimit: maximumQueuedCalls must be at least 0, not \(maximumQueuedCalls)")
        self.maximumConcurrentCalls = maximumConcurrentCalls
        self.maximumQueuedCalls = maximumQueuedCalls
    }

    /// How many calls are in flight and how many wait, now.
    public var load: (running: Int, waiting: Int) {
        state.withLock { ($0.running, $0.waiting.count) }
    }

    /// Runs `body` in a turn: at once, after waiting, or not at all.
    func run<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async throws {
        // Decided under the lock with the count of running calls: a call that waits is in the
        // queue before its task suspends, so a slot freed meanwhile is handed to it.
        let turn: Result<WaiterQueue<Void>.Ticket?, ClientFailure> = state.withLock { slots in
            if slots.running < maximumConcurrentCalls && slots.waiting.isEmpty {
                slots.running += 1
                return .success(nil)
            }
            let waiting = slots.waiting.count
            guard waiting < maximumQueuedCalls else {
                return .failure(ClientFailure(.tooManyCalls, detail: "\(slots.running) calls in flight and \(waiting) waiting"))
            }
            return .success(slots.waiting.enroll())
        }
        let ticket = try turn.get()
        guard let ticket else { return }
        // Given a turn, the call holds the slot the releasing call passed on.
        try await state.wait(for: ticket) { slots, body in body(&slots.waiting) }
    }

    private func release() {
        // The slot passes to the first waiting call, or frees up.
        let wake: WaiterQueue<Void>.Wake? = state.withLock { slots in
            let (found, wake) = slots.waiting.resumeFirst(with: ())
            if !found { slots.running -= 1 }
            return wake
        }
        wake?.resume()
    }

    /// How many places the queue holds, waiting or about to leave: 0 once every call left.
    package var queuedTickets: Int { state.withLock { $0.waiting.tickets } }
}
