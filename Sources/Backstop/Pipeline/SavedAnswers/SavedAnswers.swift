import Foundation
import HTTPTypes

/// The saved-answer stage of a ``ClientPipeline``: the last good answer of each GET is saved,
/// and when a later call fails because of the backend or the network, it answers the saved
/// payload instead, and says so.
///
/// ```swift
/// var pipeline = ClientPipeline()
/// pipeline.savedAnswers = SavedAnswers(maximumAge: .seconds(24 * 3600))
/// ```
///
/// Rules a test can check:
/// - **Saving.** A call that ends as a success (a 2xx, an envelope's success, its payload
///   decoded after repairs) of a GET, or of an endpoint whose ``SavedAnswerRule`` opts in, is
///   saved under its ``SavedAnswerKey``: the method, the absolute URL, the representation's
///   header fields (`Accept`, `Accept-Language`, ``representationFields``) and the user of the
///   credential it carried. Never saved: a response with `Cache-Control: no-store`, an endpoint
///   whose rule is ``SavedAnswerRule/never``, a body over the store's per-answer limit. Saving
///   hands the answer to the store and moves on; it never fails the call.
/// - **Answering.** When a call ends in a failure the backend or the network caused (what
///   ``CircuitBreaker/isBackendFailure(_:)`` counts, offline, a timeout, an open circuit, a full
///   concurrency queue, a general code with the ``ServerCodeRole/maintenance`` role) and an
///   answer saved no longer ago than the endpoint's ``SavedAnswerRule/maximumAge`` or
///   ``maximumAge`` exists, the call answers it: ``APIResponse/savedAnswer`` says when it was
///   saved and the failure it stands in for. Never for a 4xx, a business error, a signed-out
///   session or `signInRequired`, a cancelled call, or a method that is not idempotent.
/// - **Revalidating.** A GET with a saved answer that has an `ETag` or `Last-Modified` is sent
///   with `If-None-Match` or `If-Modified-Since`; a `304 Not Modified` answers the saved
///   payload as fresh and renews it.
/// - **Per user.** An ``AuthSession`` removes its user's answers from the store when it signs
///   out, or when another user signs in.
///
/// Off unless set. Its ``store`` is a reference: every copy of the pipeline shares it.
public struct SavedAnswers: Sendable {
    /// Where answers are kept; an ``InMemorySavedAnswerStore`` unless given.
    public var store: any SavedAnswerStore
    /// How old a saved answer may be and still stand in for a failure; an endpoint's own
    /// ``SavedAnswerRule/maximumAge`` replaces it.
    public var maximumAge: Duration
    /// Request header fields that select the representation besides `Accept` and
    /// `Accept-Language`, such as `X-App-Version`: calls that differ in them are saved apart.
    /// Secret fields (``Redaction``) are never part of a key, even when named here.
    public var representationFields: Set<HTTPField.Name>
    /// Whether a saved answer with validators is revalidated (`If-None-Match`,
    /// `If-Modified-Since`); `true` unless set.
    public var revalidates: Bool

    /// 1 day: a screen that shows yesterday's data says so; older is rarely worth showing.
    public static var defaultMaximumAge: Duration { .seconds(24 * 3600) }

    /// A stage that saves into `store` and answers saved answers up to `maximumAge` old.
    public init(
        store: any SavedAnswerStore = InMemorySavedAnswerStore(),
        maximumAge: Duration = defaultMaximumAge,
        representationFields: Set<HTTPField.Name> = [],
        revalidates: Bool = true
    ) {
        self.store = store
        self.maximumAge = maximumAge
        self.representationFields = representationFields
        self.revalidates = revalidates
    }
}
