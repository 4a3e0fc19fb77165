/// Events for any number of observers: each subscription is a stream of its own that hears
/// every event published after it began, and keeps at most ``bufferSize`` of them unread.
///
/// What the public event streams (``AuthSession/signedOutEvents``, ``GeneralCodeEvents/events``,
/// ``CircuitBreaker/transitions``, ``RecoveryPresenter/routes``) are made of. Rules a test can check:
/// - Every subscription hears every event published while it lasts, in order.
/// - An event published with no subscription is kept by nobody.
/// - A subscription that does not read keeps only the ``bufferSize`` newest events; older
///   ones are dropped, so a forgotten stream costs a bounded amount of memory.
/// - A subscription ends when its stream is dropped or its task cancelled, and when the
///   broadcast ends (its owner went away).
package final class EventBroadcast<Event: Sendable>: Sendable {
    /// The most unread events one subscription keeps: 100, the newest.
    package static var bufferSize: Int { 100 }

    private struct Observers {
        var continuations: [UInt64: AsyncStream<Event>.Continuation] = [:]
        var lastID: UInt64 = 0
        var isFinished = false
    }

    private let observers = LockedValue(Observers())

    /// A broadcast with no subscription.
    package init() {}

    deinit { finish() }

    /// A new stream that hears every event from now on.
    package func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(Self.bufferSize))
        let id = observers.withLock { observers in
            observers.lastID += 1
            return observers.lastID
        }
        // Weak: the broadcast holds the continuation, which holds this handler.
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        let added = observers.withLock { observers in
            guard !observers.isFinished else { return false }
            observers.continuations[id] = continuation
            return true
        }
        if !added { continuation.finish() }
        return stream
    }

    /// How many subscriptions hear events now.
    package var subscriptions: Int { observers.withLock { $0.continuations.count } }

    /// Hands `event` to every subscription.
    package func publish(_ event: Event) {
        let continuations = observers.withLock { Array($0.continuations) }
        for (id, continuation) in continuations {
            // Ended before its handler was set: forget it now.
            if case .terminated = continuation.yield(event) { remove(id) }
        }
    }

    /// Ends every subscription, and any made later.
    package func finish() {
        let continuations = observers.withLock { observers in
            observers.isFinished = true
            defer { observers.continuations = [:] }
            return Array(observers.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    private func remove(_ id: UInt64) {
        _ = observers.withLock { $0.continuations.removeValue(forKey: id) }
    }
}
