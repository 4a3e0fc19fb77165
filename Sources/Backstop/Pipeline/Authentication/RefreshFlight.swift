/// One refresh under way, which any number of calls wait for; each waiter can leave at once
/// when its task is cancelled, and the refresh goes on for the others.
final class RefreshFlight: Sendable {
    /// How the refresh ended, as its waiters read it.
    enum Outcome: Sendable {
        /// The session has a newer credential, or changed while the refresh ran.
        case refreshed
        /// It failed transiently; the credential is kept.
        case interrupted(RefreshInterrupted)
        /// It failed and the session is over.
        case ended(ClientFailure)
    }

    private struct State: Sendable {
        var outcome: Outcome?
        var waiters = WaiterQueue<Outcome>()
        var timer: Task<Void, Never>?
    }

    /// The task that gives the refresh up at the session's refresh timeout; cancelled when it ends.
    var timer: Task<Void, Never>? {
        get { state.withLock { $0.timer } }
        set {
            let ended = state.withLock { state in
                state.timer = newValue
                return state.outcome != nil
            }
            if ended { newValue?.cancel() }
        }
    }

    /// How many calls wait for it now.
    var waiters: Int { state.withLock { $0.waiters.count } }

    /// Whether the refresh has ended.
    var isFinished: Bool { state.withLock { $0.outcome != nil } }

    private let state = LockedValue(State())

    /// Waits until the refresh ends; throws `CancellationError` as soon as the task is cancelled.
    func outcome() async throws -> Outcome {
        let (outcome, ticket) = state.withLock { state -> (Outcome?, WaiterQueue<Outcome>.Ticket?) in
            if let outcome = state.outcome { return (outcome, nil) }
            return (nil, state.waiters.enroll())
        }
        if let outcome { return outcome }
        guard let ticket else { return .refreshed }
        return try await state.wait(for: ticket) { state, body in body(&state.waiters) }
    }

    /// Ends the refresh and wakes every waiter; later calls do nothing.
    func finish(_ outcome: Outcome) {
        let (wakes, timer) = state.withLock { state -> ([WaiterQueue<Outcome>.Wake], Task<Void, Never>?) in
            guard state.outcome == nil else { return ([], nil) }
            state.outcome = outcome
            defer { state.timer = nil }
            return (state.waiters.resumeAll(with: outcome), state.timer)
        }
        timer?.cancel()
        for wake in wakes { wake.resume() }
    }
}
