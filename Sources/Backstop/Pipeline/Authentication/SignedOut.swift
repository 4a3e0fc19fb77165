/// The session ended without the app asking: the user must sign in again.
///
/// Published once per session on ``AuthSession/signedOutEvents``, however many
/// requests ran into it.
public struct SignedOut: Sendable, Hashable {
    /// Why the session ended.
    public enum Reason: String, Sendable, Hashable {
        /// The refresh threw; every request waiting for it failed with its error.
        case refreshFailed
        /// More refreshes than the ``RefreshLimit`` allows.
        case tooManyRefreshes
        /// The backend answered a general code with the ``ServerCodeRole/signInRequired`` role.
        case signInRequired
    }

    /// Why the session ended.
    public var reason: Reason

    /// An event for a session that ended for this reason.
    public init(reason: Reason) {
        self.reason = reason
    }
}
