import Backstop
import Foundation
import OpenAPIRuntime

/// The app's networking, made once at launch: one client with the session, the app-wide
/// codes' events, a drift recorder and the saved answers, and one without a session for
/// sign-in and refresh.
public final class Networking: Sendable {
    public let client: APIClient<AppCode>
    public let session: AuthSession<BackendBAuthenticator>
    public let generalCodes = GeneralCodeEvents(roles: [.maintenance])
    public let drift = ContractDriftRecorder()
    public let store: TokenStore

    /// - Parameters:
    ///   - transport: Backstop's `StreamingURLSessionTransport` in the app (it counts a body's bytes
    ///     as they arrive and hands every redirect to Backstop, on Linux too); a stub transport in
    ///     unit tests.
    ///   - clock: What backoffs, timeouts and the session wait on; a test clock in tests.
    public init(
        baseURL: URL, store: TokenStore, transport: any ClientTransport = StreamingURLSessionTransport(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.store = store
        let open = APIClient<AppCode>(
            baseURL: baseURL, contract: backendB,
            pipeline: ClientPipeline(logging: nil, metrics: nil, clock: clock), transport: transport)
        session = AuthSession(
            authenticator: BackendBAuthenticator(refresher: open, store: store), credential: store.tokens, clock: clock)
        var pipeline = ClientPipeline(
            logging: nil, metrics: nil, generalCodes: generalCodes, authentication: .session(session), clock: clock)
        pipeline.contractDrift = drift
        // The last good answer of each GET, kept in memory for as long as the app runs: when the
        // backend or the network is down, a screen shows what it had, marked as saved.
        pipeline.savedAnswers = SavedAnswers()
        client = APIClient<AppCode>(baseURL: baseURL, contract: backendB, pipeline: pipeline, transport: transport)
    }

    public func signIn(user: String) async throws(AppError<NoModuleCodes>) {
        let tokens = try await client.send(
            Endpoint<Tokens, NoModuleCodes>(.post, "b/auth/sign-in", body: ["user": user], requiresAuthentication: false))
        store.save(tokens)
        session.signIn(tokens)
    }

    public func account() async throws(AppError<NoModuleCodes>) -> Account {
        try await client.send(Endpoint<Account, NoModuleCodes>(.get, "b/account"))
    }
}
