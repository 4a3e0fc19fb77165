/// Ends a transport's exchange from outside the task that awaits it: a hedged call's first
/// attempt runs in the call's own task, and the hedge that wins the race must still end it.
///
/// A transport that keeps deadlines itself (``DeadlineKeeping``) enters each exchange it starts
/// for an attempt; ``cancel()`` ends the one entered last, and any entered after it at once,
/// until the attempt ends (``finish()``).
package final class ExchangeCancellation: Sendable {
    private struct State: Sendable {
        var exchange: (any CancellableExchange)?
        var isCancelled = false
    }

    private let state = LockedValue(State())

    package init() {}

    /// Keeps `exchange` to cancel, in place of the one before it; cancels it at once and returns
    /// `false` when ``cancel()`` came first.
    @discardableResult
    package func enter(_ exchange: any CancellableExchange) -> Bool {
        let entered = state.withLock { state in
            guard !state.isCancelled else { return false }
            state.exchange = exchange
            return true
        }
        if !entered { exchange.cancel() }
        return entered
    }

    /// Whether ``cancel()`` was called: a transport checks before it starts an exchange.
    package var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// The attempt is over, its exchanges with it: ``cancel()`` no longer reaches them. Cancelling
    /// an exchange that has ended is harmless but not free: either transport then hands work to
    /// another thread.
    package func finish() {
        state.withLock { $0.exchange = nil }
    }

    /// Ends the exchange entered last, and every exchange entered from now on.
    package func cancel() {
        let exchange: (any CancellableExchange)? = state.withLock { state in
            state.isCancelled = true
            defer { state.exchange = nil }
            return state.exchange
        }
        exchange?.cancel()
    }
}

/// An exchange a transport has started, which it ends when asked, from any thread: its
/// awaiter then fails as cancelled.
package protocol CancellableExchange: Sendable {
    func cancel()
}
