/// What `POST /<style>/auth/refresh` does with a valid refresh token.
public enum RefreshBehaviour: String, Sendable, CaseIterable {
    /// Issues new tokens; the refresh token is rotated, so the old one stops working.
    case succeeds
    /// Answers 401 with ``BadBackend/GeneralCode/signInRequired``: the session is over.
    case fails
    /// Issues new tokens after the configured slow-answer delay on the server's clock.
    case slow
    /// Answers 503 with an error envelope and no business code, as a backend mid-deploy does:
    /// the refresh failed, the session did not.
    case unavailable
    /// Answers 400 with an error envelope and no business code, as a backend that rejects the
    /// refresh token without saying more does: the session is over.
    case rejected
}
