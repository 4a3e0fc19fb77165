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
/// - A refresh that has not ended after ``refreshTimeout`` (30 s unless given) is given up:
///   the waiting calls fail with `.transport` ``TransportFailure/Reason/timedOut``, the session
///   keeps its credential, and the next call that needs a refresh starts one again; it does not
///   count towards the ``RefreshLimit``. The refresh itself goes on: when it answers later and
///   the session has not moved on (no sign-in, sign-out or other refresh since), its credential
///   becomes the session's, since a backend that rotates refresh tokens has retired the old one.
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
    /// One ``SignedOut`` each time the session ends without the app asking, from now on: each
    /// access is a stream of its own, so any number of observers each hear every event.
    ///
    /// Subscribe before the events you want to hear: one published while no stream is open is
    /// kept by nobody. A stream that is not read keeps only the newest 100 events. The streams
    /// end with the session.
    public var signedOutEvents: AsyncStream<SignedOut> { events.subscribe() }
    /// How long a refresh may take before the calls waiting for it fail as `.transport`
    /// `timedOut` and the session keeps its credential; `nil` waits for it however long it takes.
    public let refreshTimeout: Duration?

    private let events = EventBroadcast<SignedOut>()
    private let state: SessionState<A>
    /// The stores its calls save answers to, which lose its user's answers when the user leaves.
    private let savedAnswerStores = LockedValue<[ObjectIdentifier: any SavedAnswerStore]>([:])

    /// A session that applies and refreshes credentials with `authenticator`.
    ///
    /// - Parameters:
    ///   - authenticator: Applies, recognises and refreshes credentials.
    ///   - credential: The signed-in user's credential; `nil` until ``signIn(_:)``.
    ///   - limit: How many refreshes a window allows before the session gives up.
    ///   - refreshTimeout: How long a refresh may take before its waiting calls fail as
    ///     `.transport` `timedOut`, the credential kept; 30 s unless given, `nil` for no limit.
    ///     More than a century is as good as `nil`.
    ///   - clock: Measures the refresh window and the refresh timeout; tests pass a `TestClock`.
    /// - Precondition: `refreshTimeout`, when given, is more than zero.
    public init(
        authenticator: A,
        credential: A.Credential?,
        limit: RefreshLimit = .default,
        refreshTimeout: Duration? = .seconds(30),
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        precondition(
            refreshTimeout.map { $0 > .zero } ?? true, "AuthSession: refreshTimeout must be more than zero, not \(refreshTimeout ?? .zero)")
        self.authenticator = authenticator
        self.refreshTimeout = refreshTimeout
        let stores = savedAnswerStores
        state = SessionState(
            authenticator: authenticator, credential: credential, limit: limit, refreshTimeout: refreshTimeout, clock: clock,
            events: events,
            userLeft: { user in
                for store in stores.withLock({ Array($0.values) }) { store.removeAnswers(of: user) }
            })
    }

    deinit { events.finish() }

    /// The session's credential, unless signed out; during a refresh, the one being refreshed.
    public var credential: A.Credential? { state.credential }

    /// How many calls wait for the refresh under way now; 0 when none runs.
    package var refreshWaiters: Int { state.refreshWaiters }

    /// Starts a session with `credential`, as after the user signed in.
    ///
    /// When the user is not the one signed in before (``Authenticator/savedAnswerUser(of:)``,
    /// or always when it names none), the saved answers of the one before are removed.
    public func signIn(_ credential: A.Credential) { state.signIn(credential) }

    /// Ends the session at the app's request; no event is published. The user's saved answers
    /// are removed from every store the session's calls saved to (``SavedAnswers``), as they
    /// are when the session ends without the app asking.
    public func signOut() { state.signOut() }

    var savedAnswerUser: String? { state.savedAnswerUser }

    func keepsSavedAnswers(in store: any SavedAnswerStore) {
        savedAnswerStores.withLock { $0[ObjectIdentifier(store)] = store }
    }

    var credentialIdentity: RequestCoalescing.Credential {
        RequestCoalescing.Credential(session: ObjectIdentifier(self), signIn: state.signIn)
    }
}

extension AuthSession: AuthenticationStage {
    func authenticate(
        _ request: HTTPRequest,
        record: CallRecord,
        refreshes: (@Sendable (String) -> Void)?,
        attempt: (HTTPRequest, RequestCoalescing.Credential) async throws -> Answer
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
        attempt: (HTTPRequest, RequestCoalescing.Credential) async throws -> Answer
    ) async throws -> Answer {
        let original = request
        var request = request
        authenticator.apply(issued.credential, to: &request)
        record.addSecrets(CallRecord.applied(from: original, to: request) + authenticator.secrets(of: issued.credential))
        return try await attempt(request, RequestCoalescing.Credential(session: ObjectIdentifier(self), signIn: issued.signIn))
    }
}
