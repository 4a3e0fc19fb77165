/// The attempts of one hedged call and the timers of its hedges, racing: whichever ends first
/// is what the call's task hears next.
///
/// Neither the attempts nor the timers are children of the call. A call answered before its
/// hedge was due cancels its timer and returns at once, instead of waiting for a timer task to
/// wake up to its cancellation and end, which would cost every call two more scheduling delays.
/// A call answered by one attempt cancels the others and returns without waiting for them to
/// end, which they often had not quite done even when the answer was theirs: their task ends just
/// after it delivers. What a racer delivers after the race ended is heard by nobody.
final class HedgeRace: Sendable {
    /// How one racer ended.
    enum Finished: Sendable {
        case answer(Answer)
        case failed(any Error)
        /// The delay passed: the next hedge is due.
        case due
    }

    private struct State {
        var finished: [Finished] = []
        /// Unchecked: it is taken out under the lock before it is resumed, so it is resumed once.
        var listener: UnsafeContinuation<Finished, Never>?
        var cancellations: [@Sendable () -> Void] = []
        var isCancelled = false
        var isOver = false
    }

    private let state = LockedValue(State())

    /// Hands `finished` to the call's task, now if it is listening, else when it next listens;
    /// once the race is over, to nobody.
    func deliver(_ finished: Finished) {
        let listener: UnsafeContinuation<Finished, Never>? = state.withLock { state in
            guard !state.isOver else { return nil }
            if let listener = state.listener {
                state.listener = nil
                return listener
            }
            state.finished.append(finished)
            return nil
        }
        listener?.resume(returning: finished)
    }

    /// The next racer to end, in the order they ended.
    ///
    /// Returns only when a racer ends: the call must have an attempt running (a cancelled call's
    /// attempts end cancelled) or a timer started.
    func next() async -> Finished {
        await withUnsafeContinuation { (listener: UnsafeContinuation<Finished, Never>) in
            let now: Finished? = state.withLock { state in
                guard state.finished.isEmpty else { return state.finished.removeFirst() }
                state.listener = listener
                return nil
            }
            if let now { listener.resume(returning: now) }
        }
    }

    /// Keeps the way to cancel a racer: an attempt's task, or a timer that delivers
    /// ``Finished/due``. Cancels it now if the racers are already cancelled.
    func add(cancel: @escaping @Sendable () -> Void) {
        let late = state.withLock { state in
            state.cancellations.append(cancel)
            return state.isCancelled
        }
        if late { cancel() }
    }

    /// Whether the racers were cancelled: the call was, or the race is over.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Cancels every racer, and any added later, as the call's cancellation must: the attempts
    /// are not its children. What they deliver as they end is still heard.
    func cancel() {
        for cancel in cancelled(ending: false) { cancel() }
    }

    /// Ends the race: cancels every racer, so none outlives the call for long.
    func end() {
        for cancel in cancelled(ending: true) { cancel() }
    }

    private func cancelled(ending: Bool) -> [@Sendable () -> Void] {
        state.withLock { state in
            state.isCancelled = true
            if ending { state.isOver = true }
            // Let go of them: a racer's cancellation holds what holds this race.
            defer { state.cancellations = [] }
            return state.cancellations
        }
    }
}
