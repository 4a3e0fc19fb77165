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
        var waiters: [Int: CheckedContinuation<Outcome, any Error>] = [:]
        var nextWaiter = 0
    }

    private let state = LockedValue(State())

    /// Waits until the refresh ends; throws `CancellationError` as soon as the task is cancelled.
    func outcome() async throws -> Outcome {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                state.withLock { state in
                    if let outcome = state.outcome {
                        continuation.resume(returning: outcome)
                    } else if Task.isCancelled {
                        // Cancelled before waiting: the handler below found no waiter to resume.
                        continuation.resume(throwing: CancellationError())
                    } else {
                        state.waiters[id] = continuation
                    }
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Ends the refresh and wakes every waiter; later calls do nothing.
    func finish(_ outcome: Outcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<Outcome, any Error>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}
