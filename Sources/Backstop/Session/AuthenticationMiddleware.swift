import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Applies the session's credential to every request and refreshes it, one refresh at a
/// time, by the rules of Alamofire's `AuthenticationInterceptor`.
///
/// List it last, after ``RetryMiddleware``, so every attempt carries the current credential.
/// Copies share one session. The rules:
/// - However many requests fail authentication at once (``Authenticator/isAuthenticationFailure(_:role:)``:
///   a 401, or a `tokenExpired` code in a 200 envelope or with an HTTP error), exactly one
///   refresh runs; each of them is replayed once with the new credential.
/// - A request that failed with a credential older than the current one is replayed with the
///   current one, without a refresh. Requests that start during a refresh wait for it.
/// - A credential the authenticator knows to be expired is refreshed before sending.
/// - A refresh that throws fails every waiting request, and every later one until
///   ``signIn(_:)``, with `.client` ``ClientFailure/Reason/tokenRefreshFailed`` whose
///   `underlying` is the refresh's error; ``signedOutEvents`` hears ``SignedOut`` once.
/// - More refreshes than the ``RefreshLimit`` in its window fail the same way, with
///   ``ClientFailure/Reason/tooManyRefreshes``, instead of looping.
/// - A general code with the `signInRequired` role signs out (the same event) without a
///   refresh; the caller gets the code's error.
/// - Endpoints with ``Endpoint/requiresAuthentication`` `false` pass through untouched.
/// - The credential's ``Authenticator/secrets(of:)`` are redacted from ``LoggingMiddleware``'s lines.
public struct AuthenticationMiddleware<A: Authenticator>: ClientMiddleware {
    /// Applies, recognises and refreshes credentials.
    public let authenticator: A
    /// Reads business codes for `tokenExpired` and `signInRequired`; ``APIClient`` provides its own when `nil`.
    public var classifier: ServerCodeClassifier?
    /// The largest request body buffered for the replay, and response body read to classify.
    public var maximumBodyBytes: Int
    /// One ``SignedOut`` each time the backend ends the session; observe it from one place in the app.
    public let signedOutEvents: AsyncStream<SignedOut>

    private let session: SessionState<A.Credential>

    /// - Parameters:
    ///   - credential: The signed-in user's credential; `nil` until ``signIn(_:)``.
    ///   - limit: How many refreshes a window allows before the session gives up.
    ///   - metrics: Counts each refresh in `backstop_refreshes_total` with its `outcome`
    ///     (`succeeded`, `failed`, `tooMany`).
    ///   - clock: Measures the refresh window; tests pass a `TestClock`.
    public init(
        authenticator: A,
        credential: A.Credential?,
        classifier: ServerCodeClassifier? = nil,
        limit: RefreshLimit = .default,
        metrics: MetricsMiddleware? = nil,
        maximumBodyBytes: Int = APIClient<NoModuleCodes>.defaultMaximumResponseBytes,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.authenticator = authenticator
        self.classifier = classifier
        self.maximumBodyBytes = maximumBodyBytes
        let (events, continuation) = AsyncStream<SignedOut>.makeStream()
        signedOutEvents = events
        session = SessionState(credential: credential, limit: limit, clock: clock, events: continuation,
                               recordRefresh: { metrics?.recordRefresh(outcome: $0) })
    }

    /// The session's credential, unless signed out.
    public var credential: A.Credential? { session.credential }

    /// Starts a session with `credential`, as after the user signed in.
    public func signIn(_ credential: A.Credential) { session.signIn(credential) }

    /// Ends the session at the app's request; no event is published.
    public func signOut() { session.signOut() }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let context = RequestContext.current
        guard context?.requiresAuthentication ?? true else { return try await next(request, body, baseURL) }
        let classifier = classifier ?? context?.classifier
        let authenticator = authenticator
        let refresh: @Sendable (A.Credential) async throws -> A.Credential = { try await authenticator.refresh($0) }
        var issued = try await session.current()
        if authenticator.requiresRefresh(issued.credential) {
            issued = try await session.refreshed(after: issued.generation, with: refresh)
        }
        let body = try await BodyCollection.replayable(body, upTo: maximumBodyBytes)
        let first = try await send(request, body: body, baseURL: baseURL, with: issued, classifier: classifier, next: next)
        guard first.role != .signInRequired else {
            session.signOut(because: .signInRequired, generation: issued.generation)
            return first.answer
        }
        guard authenticator.isAuthenticationFailure(first.answer.0, role: first.role) else { return first.answer }
        issued = try await session.refreshed(after: issued.generation, with: refresh)
        let replay = try await send(request, body: body, baseURL: baseURL, with: issued, classifier: classifier, next: next)
        if replay.role == .signInRequired { session.signOut(because: .signInRequired, generation: issued.generation) }
        return replay.answer
    }

    private func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, with issued: SessionState<A.Credential>.Issued,
        classifier: ServerCodeClassifier?,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (answer: (HTTPResponse, HTTPBody?), role: ServerCodeRole?) {
        var request = request
        authenticator.apply(issued.credential, to: &request)
        if let context = RequestContext.current {
            for secret in authenticator.secrets(of: issued.credential) { context.addSecret(secret) }
        }
        let (response, responseBody) = try await next(request, body, baseURL)
        guard let classifier else { return ((response, responseBody), nil) }
        let (role, body) = try await classifier.role(of: response, body: responseBody, upTo: maximumBodyBytes)
        return ((response, body), role)
    }
}
