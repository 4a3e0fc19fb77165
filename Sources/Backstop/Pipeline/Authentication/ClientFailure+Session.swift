extension ClientFailure.Reason {
    /// The credential could not be refreshed; the failure's `underlying` is the refresh's error.
    /// The session is over: the user must sign in again.
    public static let tokenRefreshFailed = Self("tokenRefreshFailed", code: 6)
    /// More refreshes than the session's ``RefreshLimit`` allows: the backend keeps
    /// rejecting fresh credentials, so refreshing stopped instead of looping.
    public static let tooManyRefreshes = Self("tooManyRefreshes", code: 7)
    /// The request needs a credential and the session has none: never signed in, or signed out.
    public static let signedOut = Self("signedOut", code: 8)
}
