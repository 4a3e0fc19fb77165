import Backstop
import Foundation
import HTTPTypes

/// The backend-B sample the DocC articles draw from, compiled and run against BadBackend by
/// `SampleAppTests`: app-wide codes, sign-in, a session that saves refreshed tokens, the
/// maintenance events, a presenter for alerts, and a feature's exhaustive `switch`.
enum SampleApp {
    /// The app-wide codes, BadBackend's general codes, with the roles Backstop acts on.
    enum AppCode: Int, ServerCode {
        case tokenExpired = 11001
        case signInRequired = 10401
        case maintenance = 10503
        case rateLimited = 10429

        var role: ServerCodeRole? {
            switch self {
            case .tokenExpired: .tokenExpired
            case .signInRequired: .signInRequired
            case .maintenance: .maintenance
            case .rateLimited: .rateLimited
            }
        }
    }

    typealias AppError<Module: ServerCode> = APIError<AppCode, Module>

    /// Backend B's envelope: `{"code": 200, "msg": "OK", "data": …}`.
    static let backendB = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))

    /// What sign-in and refresh answer.
    struct Tokens: Codable, Sendable, Equatable {
        var accessToken: String
        var refreshToken: String
    }

    /// Where the app keeps its tokens: the Keychain in an app, memory here.
    final class TokenStore: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Tokens?
        var tokens: Tokens? { lock.withLock { stored } }
        func save(_ tokens: Tokens?) { lock.withLock { stored = tokens } }
    }

    /// Backend B's bearer tokens, refreshed at `POST b/auth/refresh`, each new pair saved
    /// before it is used: a backend that rotates refresh tokens has already invalidated the old one.
    struct BackendBAuthenticator: Authenticator {
        let refresher: APIClient<AppCode>
        let store: TokenStore

        func apply(_ credential: Tokens, to request: inout HTTPRequest) {
            request.headerFields[.authorization] = "Bearer \(credential.accessToken)"
        }

        func refresh(_ credential: Tokens) async throws -> Tokens {
            let fresh = try await refresher.send(
                Endpoint<Tokens, NoModuleCodes>(
                    .post, "b/auth/refresh", body: ["refreshToken": credential.refreshToken], requiresAuthentication: false))
            store.save(fresh)
            return fresh
        }

        func secrets(of credential: Tokens) -> [String] { [credential.accessToken, credential.refreshToken] }
    }

    /// The study-group feature's own codes, beside the feature.
    enum StudyGroupCode: Int, ServerCode {
        case wrongTeamCode = 11210005
        case classNotFound = 11210006
    }

    struct StudyGroup: Decodable, Sendable, Equatable {
        var id: Int
        var name: String
        var teamCode: String
        var memberCount: Int
    }

    struct Account: Decodable, Sendable, Equatable {
        var id: Int
        var name: String
    }

    /// The app's networking, made once at launch.
    final class Networking: Sendable {
        let client: APIClient<AppCode>
        let session: AuthSession<BackendBAuthenticator>
        let generalCodes = GeneralCodeEvents(roles: [.maintenance])
        let store: TokenStore

        init(baseURL: URL, store: TokenStore, clock: some Clock<Duration>) {
            self.store = store
            // Sign-in and refresh go without a credential, through a client without a session.
            let open = APIClient<AppCode>(
                baseURL: baseURL, contract: SampleApp.backendB,
                pipeline: ClientPipeline(logging: nil, metrics: nil, clock: clock))
            session = AuthSession(
                authenticator: BackendBAuthenticator(refresher: open, store: store),
                credential: store.tokens, clock: clock)
            client = APIClient<AppCode>(
                baseURL: baseURL, contract: SampleApp.backendB,
                pipeline: ClientPipeline(
                    logging: nil, metrics: nil, generalCodes: generalCodes,
                    authentication: .session(session), clock: clock))
        }

        func signIn(user: String) async throws(AppError<NoModuleCodes>) {
            let tokens = try await client.send(
                Endpoint<Tokens, NoModuleCodes>(.post, "b/auth/sign-in", body: ["user": user], requiresAuthentication: false))
            store.save(tokens)
            session.signIn(tokens)
        }

        func account() async throws(AppError<NoModuleCodes>) -> Account {
            try await client.send(Endpoint<Account, NoModuleCodes>(.get, "b/account"))
        }
    }

    /// What the study-group screen shows.
    enum GroupScreen: Equatable {
        case group(StudyGroup)
        case teamCodeHint
        case classGone
        /// Everything else is the presenter's: an alert with the actions the user can take.
        case alert
    }

    /// The feature: its `switch` lists its own codes and the general ones, exhaustively.
    @MainActor
    static func loadGroup(
        _ path: String, networking: Networking, presenter: RecoveryPresenter
    ) async -> GroupScreen {
        do {
            return .group(try await networking.client.send(Endpoint<StudyGroup, StudyGroupCode>(.get, path)))
        } catch {
            switch error {
            case .server(.module(.wrongTeamCode, _)): return .teamCodeHint
            case .server(.module(.classNotFound, _)): return .classGone
            case .server(.general), .server(.unknown), .transport, .http, .decoding, .client:
                presenter.present(error)
                return .alert
            }
        }
    }
}
