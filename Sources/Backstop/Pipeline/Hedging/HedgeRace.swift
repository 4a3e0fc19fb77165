/// The attempts of one hedged call and the timers of its hedges, racing: whichever ends first
/// is what the call's task hears next.
///
/// The timers are not children of the call: a call answered before its hedge was due cancels
/// its timer and returns at once, instead of waiting for a timer task to wake up to its
/// cancellation and end, which would cost every call two more scheduling delays. A timer that
/// fires after the race ended is heard by nobody.
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
        var listener: CheckedContinuation<Finished, Never>?
        var cancellations: [@Sendable () -> Void] = []
        var isOver = false
    }

    private let state = LockedValue(State())

    /// Hands `finished` to the call's task, now if it is listening, else when it next listens;
    /// once the race is over, to nobody.
    func deliver(_ finished: Finished) {
        let listener: CheckedContinuation<Finished, Never>? = state.withLock { state in
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
        await withCheckedContinuation { (listener: CheckedContinuation<Finished, Never>) in
            let now: Finished? = state.withLock { state in
                guard state.finished.isEmpty else { return state.finished.removeFirst() }
                state.listener = listener
                return nil
            }
            if let now { listener.resume(returning: now) }
        }
    }

    /// Keeps the way to cancel a timer task that delivers ``Finished/due``; cancels it now if
    /// the race is already over.
    func addTimer(cancel: @escaping @Sendable () -> Void) {
        let late = state.withLock { state in
            state.cancellations.append(cancel)
            return state.isOver
        }
        if late { cancel() }
    }

    /// Ends the race: cancels every timer, so none outlives the call for long.
    func end() {
        let cancellations = state.withLock { state in
            state.isOver = true
            // Let go of them: a timer's cancellation holds what holds this race.
            defer { state.cancellations = [] }
            return state.cancellations
        }
        for cancel in cancellations { cancel() }
    }
}
