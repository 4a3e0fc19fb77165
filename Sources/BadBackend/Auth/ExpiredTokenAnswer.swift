/// How BadBackend answers a request whose access token has expired.
public enum ExpiredTokenAnswer: String, Sendable, CaseIterable {
    /// HTTP 200 with a failure envelope carrying ``BadBackend/GeneralCode/tokenExpired``.
    case tokenExpiredCode = "code"
    /// HTTP 401 with the same failure envelope.
    case unauthorized = "401"
}
