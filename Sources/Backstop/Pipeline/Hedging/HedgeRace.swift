/// The attempts of one hedged call and the timers of its hedges, racing: whichever ends first
/// is what the call's task hears next.
///
/// Neither the attempts nor the timers are children of the call. A call answered before its
/// hedge was due cancels its timer and returns at once, instead of waiting for a timer task to
/// wake up to its cancellation and end, which would cost every call two more scheduling delays.
/// A call answered by one attempt cancels the others and returns without waiting for them to
/// end, which they often had not quite done even when the answer was theirs: their task ends just
/// after it delivers. What a racer delivers after the race ended is heard by nobody.
///
/// Not a `WaiterQueue`, on purpose: that queues callers waiting for one value each, and a
/// waiter whose task is cancelled leaves at once with `CancellationError`. Here one listener,
/// the call's task, hears a sequence of events from many racers, in the order they ended, and
/// must go on hearing them after the call is cancelled: the racers are not its children, so it
/// learns of their end (cancelled) only through the race, and a call on a borrowed `next` must
/// not return before they have ended. On a `WaiterQueue` a cancelled call could not wait at
/// all, and events delivered while nobody listens would need a queue of their own beside it.
final class HedgeRace: Sendable {
    /// How one racer ended.
    enum Finished: Sendable {
        case answer(Answer)
        case failed(any Error)
        /// The delay passed: the next hedge is due.
        case due
    }

    /// A racer, as the race cancels it.
    enum Racer: Sendable {
        /// An attempt, or a hedge's timer on a test's clock.
        case task(Task<Void, Never>)
        /// A hedge's deadline among the system clocks' timers.
        case deadline(DeadlineTimers.Ticket, in: DeadlineTimers)

        func cancel() {
            switch self {
            case .task(let task): task.cancel()
            case .deadline(let ticket, let timers): timers.cancel(ticket)
            }
        }
    }

    private struct State {
        var finished: [Finished] = []
        /// Unchecked: it is taken out under the lock before it is resumed, so it is resumed once.
        var listener: UnsafeContinuation<Finished, Never>?
        /// Values, not closures: a call adds two, and a closure each cost an allocation.
        var racers: [Racer] = []
        var isCancelled = false
        var isOver = false
    }

    private let state = LockedValue(State())

    /// Hands `finished` to the call's task, now if it is listening, else when it next listens;
    /// once the race is over, to nobody.
    func deliver(_ finished: consuming Finished) {
        // Moved, never copied, to whoever gets it: a copy of an answer retains its every part.
        var pending: Finished? = consume finished
        let listener: UnsafeContinuation<Finished, Never>? = state.withLock { state in
            guard !state.isOver else { return nil }
            if let listener = state.listener {
                state.listener = nil
                return listener
            }
            if let kept = pending.take() { state.finished.append(kept) }
            return nil
        }
        if let listener, let finished = pending.take() { listener.resume(returning: finished) }
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

    /// Keeps `racer` to cancel with the others: an attempt, or a timer that delivers
    /// ``Finished/due``. Cancels it now if the racers are already cancelled.
    func add(_ racer: Racer) {
        let late = state.withLock { state in
            if state.racers.isEmpty { state.racers.reserveCapacity(2) }
            state.racers.append(racer)
            return state.isCancelled
        }
        if late { racer.cancel() }
    }

    /// Whether the racers were cancelled: the call was, or the race is over.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Cancels every racer, and any added later, as the call's cancellation must: the attempts
    /// are not its children. What they deliver as they end is still heard.
    func cancel() {
        for racer in cancelled(ending: false) { racer.cancel() }
    }

    /// Ends the race: cancels every racer, so none outlives the call for long.
    func end() {
        for racer in cancelled(ending: true) { racer.cancel() }
    }

    private func cancelled(ending: Bool) -> [Racer] {
        state.withLock { state in
            state.isCancelled = true
            if ending { state.isOver = true }
            // Let go of them: a racer holds what holds this race.
            defer { state.racers = [] }
            return state.racers
        }
    }
}
