import HTTPTypes

/// What one call asks of the pipeline beyond its configuration: an ``Endpoint``'s choices, or
/// a generated operation's.
struct CallOptions: Sendable {
    /// Names the call in logs and metrics.
    var operationID: String
    /// Replaces the pipeline's retry rules for this call.
    var retry: RetryPolicy?
    /// Whether sending it twice is harmless; `nil` decides by the method.
    var isIdempotent: Bool?
    /// Whether authentication applies the credential.
    var requiresAuthentication: Bool
    /// Replaces the pipeline's total timeout for this call.
    var timeout: Duration?
    /// Reads each answer's business code; `nil` when no stage needs it and nobody decodes the body.
    var codes: CodeReader?
    /// Replaces the pipeline's redirect rules for this call.
    var redirects: RedirectPolicy? = nil
    /// Replaces what the method decides about saved answers for this call.
    var savedAnswers: SavedAnswerRule? = nil
}
