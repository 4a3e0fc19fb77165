import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// A session call's failure, with BadBackend's general codes and their roles.
typealias SessionError = APIError<GeneralCode, NoModuleCodes>

/// What BadBackend's sign-in and refresh answer.
struct Tokens: Decodable, Sendable {
    var accessToken: String
    var refreshToken: String
    var expiresIn: Int
}

/// BadBackend's tokens, and when the access token expires on the test clock.
struct BackendCredential: Sendable, Equatable {
    var access: String
    var refresh: String
    var expiry: TestClock<Duration>.Instant

    init(_ tokens: Tokens, clock: TestClock<Duration>) {
        access = tokens.accessToken
        refresh = tokens.refreshToken
        expiry = clock.now.advanced(by: .seconds(tokens.expiresIn))
    }
}

/// Backend B's style of BadBackend: bearer tokens, refreshed at `POST b/auth/refresh`.
struct BadBackendAuthenticator: Authenticator {
    /// A client without the authentication middleware.
    let refresher: APIClient<GeneralCode>
    let clock: TestClock<Duration>
    /// Whether the credential's expiry is read before sending; else only the backend says so.
    let knowsExpiry: Bool

    func apply(_ credential: BackendCredential, to request: inout HTTPRequest) {
        request.headerFields[.authorization] = "Bearer \(credential.access)"
    }

    func refresh(_ credential: BackendCredential) async throws -> BackendCredential {
        let refresh = Endpoint<Tokens, NoModuleCodes>(
            .post, "b/auth/refresh", body: ["refreshToken": credential.refresh],
            requiresAuthentication: false)
        return BackendCredential(try await refresher.send(refresh), clock: clock)
    }

    func requiresRefresh(_ credential: BackendCredential) -> Bool { knowsExpiry && clock.now >= credential.expiry }

    func secrets(of credential: BackendCredential) -> [String] { [credential.access, credential.refresh] }
}

/// A signed-in session against a running BadBackend on a test clock.
@available(macOS 14, iOS 17, tvOS 17, *)
struct Session: Sendable {
    let backend: BadBackend
    let clock: TestClock<Duration>
    let auth: AuthSession<BadBackendAuthenticator>
    let client: APIClient<GeneralCode>
    /// The session's sign-outs, subscribed to before its first call.
    let signedOut: AsyncStream<SignedOut>

    /// Token lifetime on the backend.
    static let lifetime = Duration.seconds(100)

    /// Runs `body` with a session whose first credential is `access-1`.
    static func run(
        _ transport: TransportKind,
        expiredToken: ExpiredTokenAnswer = .tokenExpiredCode,
        refresh: RefreshBehaviour = .succeeds,
        knowsExpiry: Bool = false,
        limit: RefreshLimit = .default,
        refreshTimeout: Duration? = .seconds(30),
        pipeline configure: (inout ClientPipeline) -> Void = { _ in },
        refresher configureRefresher: (inout ClientPipeline) -> Void = { _ in },
        _ body: (Session) async throws -> Void
    ) async throws {
        let clock = TestClock()
        let configuration = BadBackend.Configuration(
            accessTokenLifetime: lifetime, expiredToken: expiredToken, refresh: refresh,
            slowAnswerDelay: .seconds(120))
        try await withBackend(configuration, clock: clock) { backend, baseURL in
            let refresher = makeClient(baseURL, transport, pipeline: quietPipeline(configureRefresher))
            let credential = try await refresher.signIn(clock)
            let auth = AuthSession(
                authenticator: BadBackendAuthenticator(refresher: refresher, clock: clock, knowsExpiry: knowsExpiry),
                credential: credential, limit: limit, refreshTimeout: refreshTimeout, clock: clock)
            let signedOut = auth.signedOutEvents
            let client = makeClient(
                baseURL, transport,
                pipeline: quietPipeline {
                    $0.authentication = .session(auth)
                    configure(&$0)
                })
            try await body(Session(backend: backend, clock: clock, auth: auth, client: client, signedOut: signedOut))
        }
    }

    /// Lets the access token expire on the backend's clock (and the middleware's).
    func expireToken() async { await clock.advance(by: Self.lifetime + .seconds(1)) }

    /// How many refreshes reached the backend.
    func refreshes() async -> Int { await backend.requestLog.entries.count { $0.path.hasSuffix("/auth/refresh") } }

    /// The credentials the backend saw for `path`, in arrival order.
    func credentials(for path: String) async -> [String?] {
        await backend.requestLog.entries.filter { $0.path == path }.map(\.credential)
    }

    /// The reasons the session has signed out so far: signs in again and lets the backend
    /// end that session, whose event is the last to read.
    func signedOutReasons() async throws -> [SignedOut.Reason] {
        auth.signIn(try await auth.authenticator.refresher.signIn(clock))
        _ = await account("scenarios/sign-in-required/b/account")
        return await events(in: signedOut) { $0.reason == .signInRequired }.map(\.reason)
    }

    /// The account at `path` with `query`, or the error.
    func account(_ path: String = "b/account", query: [String: String] = [:]) async -> Result<Account, SessionError> {
        let query = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        do {
            return .success(try await client.send(Endpoint<Account, NoModuleCodes>(.get, path, query: query)))
        } catch {
            return .failure(error)
        }
    }
}

/// What BadBackend says about the signed-in user; only what the tests read.
struct Account: Decodable, Sendable, Equatable {
    var id: Int
}

extension Result {
    var failure: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}

extension SessionError {
    /// The reason of a `.client` failure.
    var clientReason: ClientFailure.Reason? {
        guard case .client(let failure) = self else { return nil }
        return failure.reason
    }

    /// The refresh's own error kept in a `tokenRefreshFailed` failure.
    var refreshError: SessionError? {
        guard case .client(let failure) = self, failure.reason == .tokenRefreshFailed else { return nil }
        return failure.underlying?.error as? SessionError
    }
}

/// The events of `stream` up to and including the first that `isLast`; the test sends that
/// one last, so everything before it has been published.
func events<Event: Sendable>(in stream: AsyncStream<Event>, through isLast: (Event) -> Bool) async -> [Event] {
    var seen: [Event] = []
    for await event in stream {
        seen.append(event)
        if isLast(event) { break }
    }
    return seen
}

/// Announces each request as it reaches this middleware: placed last, as it is handed to the transport.
struct Handoff: ClientMiddleware {
    let sending: AsyncStream<Void>.Continuation

    init(_ sending: AsyncStream<Void>.Continuation) { self.sending = sending }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        sending.yield()
        return try await next(request, body, baseURL)
    }
}
