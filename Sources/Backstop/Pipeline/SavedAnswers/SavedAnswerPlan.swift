/// What the saved-answer stage does for one call, decided before it is sent.
struct SavedAnswerPlan: Sendable {
    /// What the call's answer is saved and looked up under.
    var key: SavedAnswerKey
    /// Whether a failure of the call may be answered from the store: its method, or its
    /// endpoint, says it is idempotent.
    var answers: Bool
    /// How old a saved answer may be to stand in for a failure.
    var maximumAge: Duration
    /// Whether the key's user is still the session's.
    var isCurrent: @Sendable () -> Bool
}
