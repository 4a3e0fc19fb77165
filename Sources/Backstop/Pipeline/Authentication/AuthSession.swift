import HTTPTypes

/// A signed-in user's session with one backend: the credential every call carries, and its
/// refreshes, one at a time, by rules close to Alamofire's `AuthenticationInterceptor`.
///
/// Give it to a pipeline with ``Authentication/session(_:)``; every call that requires
/// authentication (``Endpoint/requiresAuthentication``) then goes through it. The rules:
/// - However many calls fail authentication at once (``Authenticator/isAuthenticationFailure(_:role:)``:
///   a 401, or a `tokenExpired` code in a 200 envelope or with an HTTP error), exactly one
///   refresh runs; each of them is replayed once with the new credential.
/// - A call that failed with a credential older than the current one is replayed with the
///   current one, without a refresh. Calls that start during a refresh wait for it.
/// - A waiting call whose task is cancelled ends at once as `.transport` `cancelled`; the
///   refresh goes on for the others.
/// - A credential the authenticator knows to be expired is refreshed before sending.
/// - A refresh that fails with an error ``Authenticator/endsSession(after:)`` calls final
///   ends the session: every waiting call, and every later one until ``signIn(_:)``, fails
///   with `.client` ``ClientFailure/Reason/tokenRefreshFailed`` whose `underlying` is the
///   refresh's error, and ``signedOutEvents`` hears ``SignedOut`` once. Unlike Alamofire,
///   later calls do not try again: the user must sign in.
/// - A refresh that fails transiently (no network, a timeout, a 5xx or 429, by default) keeps
///   the session: the waiting calls fail with the refresh's own error (`.transport` `offline`,
///   `.http` 503 …) and the next call that needs a refresh starts one again.
/// - More refreshes than the ``RefreshLimit`` in its window end the session the same way, with
///   ``ClientFailure/Reason/tooManyRefreshes``, instead of looping.
/// - A general code with the `signInRequired` role ends the session (the same event) without
///   a refresh; the caller gets the code's error.
/// - The credential is secret (see ``Redaction``), whatever the authenticator: the values of the
///   header fields and query items ``Authenticator/apply(_:to:)`` set or changed, and the
///   credential's ``Authenticator/secrets(of:)``, are redacted from the pipeline's log lines,
///   the errors its calls end with and everything made from them.
public final class AuthSession<A: Authenticator>: Sendable {
    /// Applies, recognises and refreshes credentials.
    public let authenticator: A
    /// One ``SignedOut`` each time the session ends without the app asking; observe it from
    /// one place in the app.
    public let signedOutEvents: AsyncStream<SignedOut>

    private let state: SessionState<A>

    /// A session that applies and refreshes credentials with `authenticator`.
    ///
    /// - Parameters:
    ///   - authenticator: Applies, recognises and refreshes credentials.
    ///   - credential: The signed-in user's credential; `nil` until ``signIn(_:)``.
    ///   - limit: How many refreshes a window allows before the session gives up.
    ///   - clock: Measures the refresh window; tests pass a `TestClock`.
    public init(
        authenticator: A,
        credential: A.Credential?,
        limit: RefreshLimit = .default,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.authenticator = authenticator
        let (events, continuation) = AsyncStream<SignedOut>.makeStream()
        signedOutEvents = events
        state = SessionState(authenticator: authenticator, credential: credential, limit: limit, clock: clock, events: continuation)
    }

    /// The session's credential, unless signed out; during a refresh, the one being refreshed.
    public var credential: A.Credential? { state.credential }

    /// Starts a session with `credential`, as after the user signed in.
    public func signIn(_ credential: A.Credential) { state.signIn(credential) }

    /// Ends the session at the app's request; no event is published.
    public func signOut() { state.signOut() }

    var credentialIdentity: RequestCoalescing.Credential {
        RequestCoalescing.Credential(session: ObjectIdentifier(self), generation: state.generation)
    }
}

extension AuthSession: AuthenticationStage {
    func authenticate(
        _ request: HTTPRequest,
        record: CallRecord,
        refreshes: (@Sendable (String) -> Void)?,
        attempt: (HTTPRequest) async throws -> Answer
    ) async throws -> Answer {
        var issued = try await state.current()
        if authenticator.requiresRefresh(issued.credential) {
            issued = try await state.refreshed(after: issued.generation, refreshes: refreshes, span: record.span)
        }
        let first = try await send(request, with: issued, record: record, attempt: attempt)
        guard first.role != .signInRequired else {
            state.signOut(because: .signInRequired, generation: issued.generation)
            return first
        }
        guard authenticator.isAuthenticationFailure(first.response, role: first.role) else { return first }
        issued = try await state.refreshed(after: issued.generation, refreshes: refreshes, span: record.span)
        let replay = try await send(request, with: issued, record: record, attempt: attempt)
        if replay.role == .signInRequired { state.signOut(because: .signInRequired, generation: issued.generation) }
        return replay
    }

    private func send(
        _ request: HTTPRequest, with issued: SessionState<A>.Issued, record: CallRecord,
        attempt: (HTTPRequest) async throws -> Answer
    ) async throws -> Answer {
        let original = request
        var request = request
        authenticator.apply(issued.credential, to: &request)
        record.addSecrets(CallRecord.applied(from: original, to: request) + authenticator.secrets(of: issued.credential))
        return try await attempt(request)
    }
}
