/// Why an ``AuthSession`` could not give a request a working credential.
///
/// ``APIClient`` turns it into `.client` with the same ``ClientFailure``; an OpenAPI-generated
/// client throws it inside its `ClientError`.
public struct AuthenticationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ``ClientFailure/Reason/tokenRefreshFailed`` (with the refresh's error as `underlying`),
    /// ``ClientFailure/Reason/tooManyRefreshes`` or ``ClientFailure/Reason/signedOut``.
    public var failure: ClientFailure

    /// Wraps the failure the session ended the request with.
    public init(_ failure: ClientFailure) {
        self.failure = failure
    }

    public var description: String { failure.description }
}
