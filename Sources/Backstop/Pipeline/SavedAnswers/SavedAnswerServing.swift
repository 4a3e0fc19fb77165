import Foundation

/// What marks an ``Answer`` as a saved one standing in for a failure: when it was saved, and
/// the failure, which its entry point makes into the error its caller would have got.
struct SavedAnswerServing: Sendable {
    /// The failure a saved answer stands in for, as the stages below the saved answers ended.
    indirect enum Failure: Sendable {
        /// What the stages threw: an open circuit, a full queue, a timeout, no network …
        case thrown(any Error)
        /// The backend's answer: a 5xx, or a general code with the `maintenance` role.
        case answer(Answer)
    }

    /// When the backend last gave the answer.
    var savedAt: Date
    /// How old the answer was when it stood in.
    var age: Duration
    /// What it stands in for.
    var failure: Failure
}
