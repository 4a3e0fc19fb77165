/// The attempts of one hedged call and the timers of its hedges, racing by the rules of
/// ``Hedging``: the first answer the retry rules would not retry wins; a failure (an error, or an
/// answer they would retry) sends the next hedge at once; when every request sent has failed,
/// the first failure to end is the outcome.
///
/// The rules are kept where each racer ends, by whoever delivers: an attempt's task, a timer's
/// Dispatch queue, or the call's own task. So a hedge is sent when its delay passes even while
/// the call's task is busy with the first attempt, which it runs itself when the transport can
/// end that attempt from outside (``ExchangeCancellation``): a task for it cost a call on
/// AsyncHTTPClient 6 to 8 points of a hand-written call's time.
///
/// Neither the hedges nor the timers are children of the call. A call answered before its hedge
/// was due cancels its timer and returns at once, instead of waiting for a timer task to wake up
/// to its cancellation. A call answered by one attempt cancels the others and returns without
/// waiting for them to end. What a racer delivers once the outcome is decided is heard by nobody.
///
/// Not a `WaiterQueue`, on purpose: that queues callers waiting for one value each. Here many
/// racers deliver a sequence of events to one state machine, which goes on hearing them after the
/// call is cancelled: the hedges are not its children, so it learns of their end (cancelled)
/// only through the race, and a call on a borrowed `next` must not return before they have ended.
final class HedgeRace: Sendable {
    /// One attempt: authenticated, sent, and its answer read.
    typealias Attempt = @Sendable () async throws -> Answer

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
        /// The first attempt, run in the call's own task, as its transport ends it.
        case exchange(ExchangeCancellation)

        func cancel() {
            switch self {
            case .task(let task): task.cancel()
            case .deadline(let ticket, let timers): timers.cancel(ticket)
            case .exchange(let exchange): exchange.cancel()
            }
        }
    }

    /// What one hedged call's race is allowed, read by every racer.
    struct Rules: Sendable {
        /// What counts as a failure, and which failures send the next hedge.
        let policy: RetryPolicy
        /// ``Hedging/maximumHedges``.
        let maximumHedges: Int
        /// Each hedge withdraws from it, as a retry does.
        let budget: RetryBudget
        /// Each hedge is recorded there as a retry.
        let record: CallRecord
        /// When the hedges are due.
        let deadlines: HedgeDeadlines
        /// Where the hedges' tasks run.
        let placement: TaskPlacement
        /// Whether the attempts' tasks are kept to be awaited: the call's `send` is borrowed.
        let keepsAttempts: Bool
        /// Learns how long the winner took, when the delay is a percentile of latencies.
        let learnsLatency: (@Sendable () -> Void)?
    }

    private struct State {
        /// Unchecked: it is taken out under the lock before it is resumed, so it is resumed once.
        var listener: UnsafeContinuation<Result<Answer, any Error>, Never>?
        /// The outcome, once decided and until the call's task takes it.
        var outcome: Result<Answer, any Error>?
        var isDecided = false
        var isCancelled = false
        /// Values, not closures: a call adds two, and a closure each cost an allocation.
        var racers: [Racer] = []
        /// The attempts' tasks, when ``Rules/keepsAttempts``.
        var attempts: [Task<Void, Never>] = []
        /// Hedges sent, timers started, and attempts not yet ended.
        var hedges = 0
        var timers = 1
        var running = 1
        var firstFailure: Result<Answer, any Error>?
    }

    /// What a delivery leaves to do once the lock is let go.
    private enum Step {
        case none
        /// Start the `n`th hedge's timer.
        case startTimer(Int)
        /// The outcome is decided: cancel the racers, and hand it to the listener if one waits.
        case decided([Racer], UnsafeContinuation<Result<Answer, any Error>, Never>?, Result<Answer, any Error>?)
    }

    private let rules: Rules
    private let hedge: Attempt
    private let state = LockedValue(State())

    /// A race by `rules`, whose hedges run `hedge`.
    init(_ rules: Rules, hedge: @escaping Attempt) {
        self.rules = rules
        self.hedge = hedge
    }

    /// Runs `first` and its hedges until the outcome is decided, and answers it.
    ///
    /// `first` runs in this task when `exchange` can end it, else in a task of its own that starts
    /// on this thread. Either way the caller's cancellation reaches every attempt through the race.
    func run(first: @escaping Attempt, endedBy exchange: ExchangeCancellation?) async -> Result<Answer, any Error> {
        await withTaskCancellationHandler {
            rules.deadlines.start(1, in: self)
            if let exchange {
                add(.exchange(exchange))
                await attempt(first, endedBy: exchange)
            } else {
                let task = Task.startingHere(on: rules.placement) { await self.attempt(first) }
                add(.task(task))
                if rules.keepsAttempts { state.withLock { $0.attempts.append(task) } }
            }
            return await outcome()
        } onCancel: {
            cancel()
        }
    }

    /// The attempts' tasks, to await before a call on a borrowed `send` returns.
    var attempts: [Task<Void, Never>] { state.withLock { $0.attempts } }

    /// Cancels every racer, and any added later, as the call's cancellation must: the hedges are
    /// not its children. What they deliver as they end is still heard, until every attempt has
    /// ended and the first failure is the outcome.
    func cancel() {
        let racers = state.withLock { state in
            state.isCancelled = true
            defer { state.racers = [] }
            return state.racers
        }
        for racer in racers { racer.cancel() }
    }

    /// Hands `finished` to the race's rules.
    func deliver(_ finished: consuming Finished) {
        // Moved, never copied, to whoever gets it: a copy of an answer retains its every part.
        var pending: Finished? = consume finished
        let step: Step = state.withLock { state in
            guard !state.isDecided, let finished = pending.take() else { return .none }
            switch finished {
            case .answer(let answer):
                guard CallRunner.failure(of: answer, policy: rules.policy) != nil else {
                    rules.learnsLatency?()
                    return decide(.success(answer), in: &state)
                }
                return failed(.success(answer), sendsNext: true, in: &state)
            case .failed(let error):
                let retryable = CallRunner.failure(of: error).map(rules.policy.isRetryable) == true
                return failed(.failure(error), sendsNext: !state.isCancelled && retryable, in: &state)
            case .due:
                guard !state.isCancelled else { return decide(state.firstFailure ?? .failure(CancellationError()), in: &state) }
                return hedgeSent(in: &state) ?? .none
            }
        }
        switch step {
        case .none: break
        case .startTimer(let n): rules.deadlines.start(n, in: self)
        case .decided(let racers, let listener, var outcome):
            for racer in racers { racer.cancel() }
            if let listener, let outcome = outcome.take() { listener.resume(returning: outcome) }
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

    /// Whether the racers were cancelled: the call was, or the outcome is decided.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Runs `attempt` and delivers how it ended; `exchange`, if it ends the attempt's exchanges,
    /// is told the attempt is over first, so that deciding the race does not cancel them again.
    private func attempt(_ attempt: Attempt, endedBy exchange: ExchangeCancellation? = nil) async {
        // A hedge is not the call's child, so a call cancelled before it starts must be heard
        // here, and a hedge cancelled before it ran sends nothing.
        guard !isCancelled, !Task.isCancelled else {
            deliver(.failed(CancellationError()))
            return
        }
        let outcome: Finished
        do {
            outcome = .answer(try await attempt())
        } catch {
            outcome = .failed(error)
        }
        exchange?.finish()
        deliver(outcome)
    }

    /// The outcome, once decided.
    private func outcome() async -> Result<Answer, any Error> {
        await withUnsafeContinuation { (listener: UnsafeContinuation<Result<Answer, any Error>, Never>) in
            let now: Result<Answer, any Error>? = state.withLock { state in
                guard let outcome = state.outcome.take() else {
                    state.listener = listener
                    return nil
                }
                return outcome
            }
            if let now { listener.resume(returning: now) }
        }
    }

    /// One attempt failed: the next hedge goes at once if the rules send one, else the outcome
    /// is the first failure once every attempt has ended.
    private func failed(_ failure: consuming Result<Answer, any Error>, sendsNext: Bool, in state: inout State) -> Step {
        state.running -= 1
        if state.firstFailure == nil { state.firstFailure = consume failure }
        // A failure the retry rules would retry sends the next hedge at once, as Polly does.
        if sendsNext, let step = hedgeSent(in: &state) { return step }
        guard state.running == 0, let first = state.firstFailure.take() else { return .none }
        return decide(first, in: &state)
    }

    /// Sends a hedge, if one may go: within ``Hedging/maximumHedges`` and the budget; the next
    /// hedge's timer is left to start if one is due later.
    ///
    /// The hedge's task is made under the lock, which only enqueues it: it is then a racer, and
    /// kept to be awaited, before any outcome can be decided, so a call on a borrowed `send`
    /// never returns with a hedge it did not wait for.
    private func hedgeSent(in state: inout State) -> Step? {
        guard !state.isCancelled, state.hedges < rules.maximumHedges, rules.budget.withdraw() else { return nil }
        state.hedges += 1
        state.running += 1
        rules.record.recordRetry(reason: "hedge")
        let hedge = Task.enqueued(on: rules.placement) { await self.attempt(self.hedge) }
        state.racers.append(.task(hedge))
        if rules.keepsAttempts { state.attempts.append(hedge) }
        guard state.timers <= state.hedges, state.hedges < rules.maximumHedges else { return Step.none }
        state.timers = state.hedges + 1
        return .startTimer(state.timers)
    }

    /// Decides the outcome: every racer is cancelled, and the listener, if one waits, gets it.
    private func decide(_ outcome: consuming Result<Answer, any Error>, in state: inout State) -> Step {
        state.isDecided = true
        state.isCancelled = true
        let racers = state.racers
        state.racers = []
        guard let listener = state.listener else {
            state.outcome = consume outcome
            return .decided(racers, nil, nil)
        }
        state.listener = nil
        return .decided(racers, listener, consume outcome)
    }
}
