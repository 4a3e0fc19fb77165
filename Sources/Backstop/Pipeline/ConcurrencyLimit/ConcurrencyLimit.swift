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
        var waiting: [(id: UInt64, turn: CheckedContinuation<Void, any Error>)] = []
        var cancelledBeforeWaiting: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    /// A limit; share one instance between the pipelines it bounds together.
    ///
    /// - Parameters:
    ///   - maximumConcurrentCalls: The most calls in flight at once; at least 1.
    ///   - maximumQueuedCalls: The most calls waiting for a turn; 0 fails every call over the limit.
    public init(maximumConcurrentCalls: Int, maximumQueuedCalls: Int = 100) {
        self.maximumConcurrentCalls = max(maximumConcurrentCalls, 1)
        self.maximumQueuedCalls = max(maximumQueuedCalls, 0)
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
        let id: UInt64? = state.withLock { slots in
            if slots.running < maximumConcurrentCalls && slots.waiting.isEmpty {
                slots.running += 1
                return nil
            }
            slots.nextID += 1
            return slots.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (turn: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { slots in
                    if slots.cancelledBeforeWaiting.remove(id) != nil { return .failure(CancellationError()) }
                    if slots.running < maximumConcurrentCalls && slots.waiting.isEmpty {
                        slots.running += 1
                        return .success(())
                    }
                    guard slots.waiting.count < maximumQueuedCalls else {
                        return .failure(
                            ClientFailure(.tooManyCalls, detail: "\(slots.running) calls in flight and \(slots.waiting.count) waiting"))
                    }
                    slots.waiting.append((id, turn))
                    return nil
                }
                if let now { turn.resume(with: now) }
            }
        } onCancel: {
            let turn: CheckedContinuation<Void, any Error>? = state.withLock { slots in
                if let index = slots.waiting.firstIndex(where: { $0.id == id }) { return slots.waiting.remove(at: index).turn }
                slots.cancelledBeforeWaiting.insert(id)
                return nil
            }
            turn?.resume(throwing: CancellationError())
        }
        // A cancellation that came after the turn was given leaves nothing behind.
        state.withLock { _ = $0.cancelledBeforeWaiting.remove(id) }
    }

    private func release() {
        // The slot passes to the first waiting call, or frees up.
        let next: CheckedContinuation<Void, any Error>? = state.withLock { slots in
            guard !slots.waiting.isEmpty else {
                slots.running -= 1
                return nil
            }
            return slots.waiting.removeFirst().turn
        }
        next?.resume()
    }
}
