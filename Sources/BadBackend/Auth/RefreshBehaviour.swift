/// What `POST /<style>/auth/refresh` does with a valid refresh token.
public enum RefreshBehaviour: String, Sendable, CaseIterable {
    /// Issues new tokens; the refresh token is rotated, so the old one stops working.
    case succeeds
    /// Answers 401 with ``GeneralCode/signInRequired``: the session is over.
    case fails
    /// Issues new tokens after the configured slow-answer delay on the server's clock.
    case slow
}
