import HTTPTypes

/// What an ``AuthSession`` needs to know about one backend's credentials: how to
/// put one on a request, when a response means it no longer works, and how to get a new one.
///
/// ```swift
/// struct BackendBAuthenticator: Authenticator {
///     let refresher: APIClient<AppCode>   // a client without authentication
///
///     func apply(_ credential: Tokens, to request: inout HTTPRequest) {
///         request.headerFields[.authorization] = "Bearer \(credential.accessToken)"
///     }
///
///     func refresh(_ credential: Tokens) async throws -> Tokens {
///         try await refresher.send(.refresh(credential.refreshToken))
///     }
///
///     func secrets(of credential: Tokens) -> [String] {
///         [credential.accessToken, credential.refreshToken]
///     }
/// }
/// ```
///
/// - ``refresh(_:)`` is called at most once at a time, however many requests need it.
/// - An error it throws ends the session only when ``endsSession(after:)`` says so: by default
///   an answer of the backend's about the credential (a 401 or 400, a business code), not a
///   network failure, a timeout, a 5xx or a 429, which the waiting calls fail with while the
///   credential is kept.
/// - The defaults: a 401, or a general code with the ``ServerCodeRole/tokenExpired`` role (in a
///   200 envelope or with an HTTP error), is an authentication failure; a credential is never
///   known to be expired before the backend says so.
public protocol Authenticator: Sendable {
    /// The tokens, or whatever else proves who the user is.
    associatedtype Credential: Sendable

    /// Puts `credential` on `request`, typically in `Authorization`.
    func apply(_ credential: Credential, to request: inout HTTPRequest)

    /// A new credential for the one that stopped working.
    ///
    /// What it throws is read by ``endsSession(after:)``: rethrow the refresh call's own error
    /// (an `APIError` from an ``APIClient``) so the default can tell a rejected refresh token
    /// from a phone in a tunnel.
    func refresh(_ credential: Credential) async throws -> Credential

    /// Whether `refreshError`, thrown by ``refresh(_:)``, means the session is over.
    ///
    /// `true` signs the user out: the waiting calls fail with `.client`
    /// ``ClientFailure/Reason/tokenRefreshFailed``. `false` keeps the credential: the waiting
    /// calls fail with the error itself and the next call refreshes again. The default treats
    /// as transient an `APIError` of the transport layer, a 408, 429 or 5xx, a business code
    /// with the `maintenance` or `rateLimited` role, and a body that could not be decoded; any
    /// other `APIError` ends the session. Errors that are not `APIError`s are transient when
    /// they are network failures (`URLError`, POSIX, cancellation), else they end the session.
    func endsSession(after refreshError: any Error) -> Bool

    /// Whether `response` says the credential no longer works, so a refresh may help.
    ///
    /// `role` is the role of the response's general code, when it has one.
    func isAuthenticationFailure(_ response: HTTPResponse, role: ServerCodeRole?) -> Bool

    /// Whether `credential` is known to be expired, so it is refreshed before sending.
    func requiresRefresh(_ credential: Credential) -> Bool

    /// Values of `credential` that logs and errors must never show, besides what ``apply(_:to:)``
    /// puts on the request, which is secret already; `[]` by default.
    ///
    /// Name here what a server may echo that `apply` does not send, such as the refresh token.
    /// They are redacted as the pipeline's ``ClientPipeline/redaction`` redacts every secret.
    func secrets(of credential: Credential) -> [String]

    /// Whose answers a call with `credential` saves (``SavedAnswers``): a name of the user that
    /// stays the same across refreshes and launches and is no secret, such as the user's ID;
    /// `nil` by default.
    ///
    /// With `nil`, each sign-in of the session is a user of its own, named afresh: answers are
    /// still kept apart per user and removed at sign-out, but a store on disk cannot give the
    /// same user's answers back after the app is launched again. Never return the credential,
    /// a token or anything derived from one: the name is written where the answers are.
    func savedAnswerUser(of credential: Credential) -> String?
}

extension Authenticator {
    public func isAuthenticationFailure(_ response: HTTPResponse, role: ServerCodeRole?) -> Bool {
        response.status == .unauthorized || role == .tokenExpired
    }

    public func requiresRefresh(_ credential: Credential) -> Bool { false }

    public func endsSession(after refreshError: any Error) -> Bool {
        switch refreshError {
        case let error as any RefreshFailureReading: error.endsSessionWhenRefreshFails
        case is AuthenticationError: true
        default: TransportFailure(refreshError).reason == .other
        }
    }

    public func secrets(of credential: Credential) -> [String] { [] }

    public func savedAnswerUser(of credential: Credential) -> String? { nil }
}
