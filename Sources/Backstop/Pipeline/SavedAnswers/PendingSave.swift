/// A good answer of a call, to be saved once its entry point has read it as a success: after
/// ``APIClient`` decoded its payload, or ``PipelineMiddleware`` repaired it.
///
/// A class, made once per exchange: the calls that share a coalesced exchange share it, and the
/// first that reads the answer as a success saves it.
final class PendingSave: Sendable {
    private let store: any SavedAnswerStore
    private let answer: SavedAnswer
    /// Whether the answer's user is still the session's: a save that comes after a sign-out
    /// would bring back what the sign-out removed.
    private let isCurrent: @Sendable () -> Bool
    /// Hears the save and how many answers it evicted, for the metrics.
    private let report: (@Sendable (_ outcome: String, _ count: Int) -> Void)?
    private let done = LockedValue(false)

    init(
        _ answer: SavedAnswer, in store: any SavedAnswerStore, isCurrent: @escaping @Sendable () -> Bool,
        report: (@Sendable (String, Int) -> Void)?
    ) {
        self.answer = answer
        self.store = store
        self.isCurrent = isCurrent
        self.report = report
    }

    /// Hands the answer to the store, the first time only; returns at once.
    func commit() {
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        let report = report
        guard Self.save(answer, in: store, isCurrent: isCurrent, evicted: { report?("evicted", $0) }) else { return }
        report?("saved", 1)
    }

    /// Saves `answer` in `store` while its user is the session's, and answers whether it did.
    ///
    /// The user is read before and after: a sign-out between the two has removed the user's
    /// answers already, or is about to, and this one is removed again, so a save racing a
    /// sign-out never brings back what it removed.
    static func save(
        _ answer: SavedAnswer, in store: any SavedAnswerStore, isCurrent: @Sendable () -> Bool,
        evicted: @escaping @Sendable (Int) -> Void
    ) -> Bool {
        guard isCurrent() else { return false }
        store.save(answer) { count in
            if count > 0 { evicted(count) }
        }
        guard isCurrent() else {
            store.remove(answer.key)
            return false
        }
        return true
    }
}
