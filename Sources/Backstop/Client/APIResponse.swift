import BackstopJSON
import HTTPTypes

/// Everything a call through ``APIClient`` learned, for callers that need more than the payload.
public struct APIResponse<Payload: Sendable>: Sendable {
    /// The status of the response that answered, after any retries.
    public var status: HTTPResponse.Status
    /// The header fields of that response.
    public var headerFields: HTTPFields
    /// The payload the contract unwrapped.
    public var payload: Payload
    /// What lenient decoding repaired in the body, paths rooted at the body.
    public var repairs: [Repair]
    /// How many times the request reached the transport; more than 1 after retries.
    public var attempts: Int
    /// From the call's start to its decoded payload, retries and backoff included.
    public var duration: Duration
    /// Set when the payload is a saved answer standing in for a failure (``SavedAnswers``):
    /// when it was saved, and the error the call would have ended with. ``status`` and
    /// ``headerFields`` are then the saved answer's. `nil` when the backend answered now.
    public var savedAnswer: SavedAnswerUse? = nil
}
