import Foundation

/// How a response's payload came from the saved answers rather than from the backend: when it
/// was saved, and the failure it stands in for.
///
/// ``APIResponse/savedAnswer`` is `nil` for an answer the backend gave now, a revalidated one
/// (`304 Not Modified`) included. ``RecoveryPolicy/notice(for:locale:timeZone:now:)`` makes the notice the
/// user should see instead of an alert: "Showing what was saved at 10:42".
public struct SavedAnswerUse: Sendable {
    /// When the backend gave the answer, or last said it had not changed.
    public var savedAt: Date
    /// How old the answer was when it was used.
    public var age: Duration
    /// The error the call would have ended with, redacted as the pipeline redacts every error:
    /// an ``APIError`` of the endpoint's codes. `nil` when the saved answer was shown before
    /// the backend was asked (``APIClient/savedThenFresh(_:)``).
    public var failure: (any Error & Sendable)?

    /// A use of a saved answer.
    public init(savedAt: Date, age: Duration, failure: (any Error & Sendable)?) {
        self.savedAt = savedAt
        self.age = age
        self.failure = failure
    }
}
