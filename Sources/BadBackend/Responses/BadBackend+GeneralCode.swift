extension BadBackend {
    /// The business codes any BadBackend endpoint may answer with, whatever its feature.
    ///
    /// Token expired is the seed's `11001`; the others follow the house pattern of a five-digit
    /// code ending in the HTTP status they resemble. Clients map them to their general codes.
    ///
    /// Nested in ``BadBackend`` so an app's own `GeneralCode`, which the articles tell it to
    /// declare, never clashes with it in a test that imports both.
    public enum GeneralCode: Int, Sendable, CaseIterable {
        /// The access token expired; refreshing it and trying again helps.
        case tokenExpired = 11001
        /// No valid session: the user must sign in.
        case signInRequired = 10401
        /// The service is down for maintenance.
        case maintenance = 10503
        /// Too many requests.
        case rateLimited = 10429

        /// The scenario name, and what the server says in the envelope's message.
        var scenario: (name: String, message: String) {
            switch self {
            case .tokenExpired: ("token-expired", "Token expired")
            case .signInRequired: ("sign-in-required", "Please sign in")
            case .maintenance: ("maintenance", "Down for maintenance")
            case .rateLimited: ("rate-limited", "Too many requests")
            }
        }
    }
}
