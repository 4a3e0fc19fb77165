import HTTPTypes

/// What ``AuthenticationMiddleware`` needs to know about one backend's credentials: how to
/// put one on a request, when a response means it no longer works, and how to get a new one.
///
/// ```swift
/// struct BackendBAuthenticator: Authenticator {
///     let refresher: APIClient<AppCode>   // a client without the authentication middleware
///
///     func apply(_ credential: Tokens, to request: inout HTTPRequest) {
///         request.headerFields[.authorization] = "Bearer \(credential.access)"
///     }
///     func refresh(_ credential: Tokens) async throws -> Tokens {
///         try await refresher.send(.refresh(credential.refresh))
///     }
///     func secrets(of credential: Tokens) -> [String] { [credential.access, credential.refresh] }
/// }
/// ```
///
/// - ``refresh(_:)`` is called at most once at a time, however many requests need it; its
///   error reaches every waiting request as `.client` ``ClientFailure/Reason/tokenRefreshFailed``.
/// - The defaults: a 401, or a general code with the ``ServerCodeRole/tokenExpired`` role (in a
///   200 envelope or with an HTTP error), is an authentication failure; a credential is never
///   known to be expired before the backend says so.
public protocol Authenticator: Sendable {
    /// The tokens, or whatever else proves who the user is.
    associatedtype Credential: Sendable

    /// Puts `credential` on `request`, typically in `Authorization`.
    func apply(_ credential: Credential, to request: inout HTTPRequest)

    /// A new credential for the one that stopped working; throws when the session is over.
    func refresh(_ credential: Credential) async throws -> Credential

    /// Whether `response` says the credential no longer works, so a refresh may help.
    ///
    /// `role` is the role of the response's general code, when it has one.
    func isAuthenticationFailure(_ response: HTTPResponse, role: ServerCodeRole?) -> Bool

    /// Whether `credential` is known to be expired, so it is refreshed before sending.
    func requiresRefresh(_ credential: Credential) -> Bool

    /// The values of `credential` that logs must never show; they are redacted by
    /// ``LoggingMiddleware`` wherever they appear.
    func secrets(of credential: Credential) -> [String]
}

extension Authenticator {
    public func isAuthenticationFailure(_ response: HTTPResponse, role: ServerCodeRole?) -> Bool {
        response.status == .unauthorized || role == .tokenExpired
    }

    public func requiresRefresh(_ credential: Credential) -> Bool { false }

    public func secrets(of credential: Credential) -> [String] { [] }
}
