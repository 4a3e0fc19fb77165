/// A refresh failed for a reason that says nothing about the session, such as no network: the
/// calls waiting for it fail with its error and the credential is kept for the next call.
struct RefreshInterrupted: Error, CustomStringConvertible {
    /// What the authenticator's refresh threw.
    let error: any Error

    var description: String { "the credential could not be refreshed: \(error)" }
}
