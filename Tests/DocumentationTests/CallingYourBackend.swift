import Backstop
import BadBackend
import Foundation
import HTTPTypes
import OpenAPIURLSession
import Testing

// The code of the DocC article "Calling Your Backend", as it is written there. Its declarations
// are the app every other snippet in this target uses.

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

enum ItemCode: Int, ServerCode {
    case notFound = 40401
}

struct Item: Codable, Sendable {
    var id: Int
    var name: String
}

let backendB = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))

let client = APIClient<AppCode>(
    baseURL: URL(string: "https://b.example.com/api")!,
    contract: backendB,
    pipeline: ClientPipeline(logging: RequestLogging(secretQueryItems: ["sig"]))
)

extension Endpoint where Payload == Item, Module == ItemCode {
    static func item(_ id: Int) -> Self { Endpoint(.get, "items/\(id)") }

    static func rename(_ item: Item) -> Self {
        Endpoint(.put, "items/\(item.id)", body: item, timeout: .seconds(10))
    }
}

func sendAnItem() async throws {
    let item = try await client.send(.item(7))
    _ = item
}

func handleAnItemsErrors() async {
    do {
        show(try await client.send(.item(7)))
    } catch {
        switch error {
        case .server(.module(.notFound, _)): showGone()
        case .transport(let failure) where failure.reason == .cancelled: break
        case .transport, .http, .decoding, .server, .client: showAlert(error)
        }
    }
}

struct Tokens: Codable, Sendable {
    var accessToken: String
    var refreshToken: String
}

extension Endpoint where Payload == Tokens, Module == NoModuleCodes {
    static func refresh(_ refreshToken: String) -> Self {
        Endpoint(.post, "auth/refresh", body: ["refreshToken": refreshToken], requiresAuthentication: false)
    }
}

struct BackendBAuthenticator: Authenticator {
    let refresher: APIClient<AppCode>

    func apply(_ credential: Tokens, to request: inout HTTPRequest) {
        request.headerFields[.authorization] = "Bearer \(credential.accessToken)"
    }

    func refresh(_ credential: Tokens) async throws -> Tokens {
        try await refresher.send(.refresh(credential.refreshToken))
    }

    func secrets(of credential: Tokens) -> [String] {
        [credential.accessToken, credential.refreshToken]
    }
}

func makeTheAppsClient(baseURL: URL) -> APIClient<AppCode> {
    let session = AuthSession(
        authenticator: BackendBAuthenticator(refresher: APIClient(baseURL: baseURL, contract: backendB)),
        credential: savedTokens
    )
    let general = GeneralCodeEvents(roles: [.maintenance])
    let client = APIClient<AppCode>(
        baseURL: baseURL,
        contract: backendB,
        pipeline: ClientPipeline(generalCodes: general, authentication: .session(session))
    )
    Task { for await _ in session.signedOutEvents { showSignIn() } }
    Task { for await _ in general.events { showMaintenanceBanner() } }
    return client
}

func makeAGeneratedClient() throws -> Client {
    let generated = Client(
        serverURL: try Servers.Server1.url(),
        transport: URLSessionTransport(),
        middlewares: [
            PipelineMiddleware(
                client.pipeline, contract: backendB, generalCodes: AppCode.self,
                unauthenticatedOperations: ["signIn", "refreshToken"])
        ]
    )
    return generated
}

@Suite("Calling Your Backend, as written")
struct CallingYourBackendTests {
    @Test("the article's authenticator signs in and refreshes, and its client reads maintenance, against BadBackend")
    func theArticlesClientAgainstBadBackend() async throws {
        let backend = BadBackend()
        try await backend.withRunning { url in
            let b = url.appendingPathComponent("b")
            let signIn = APIClient<AppCode>(baseURL: b, contract: backendB)
            let tokens = try await signIn.send(
                Endpoint<Tokens, NoModuleCodes>(.post, "auth/sign-in", body: credentials, requiresAuthentication: false))
            let refreshed = try await BackendBAuthenticator(refresher: signIn).refresh(tokens)
            #expect(refreshed.accessToken != tokens.accessToken)

            let client = makeTheAppsClient(baseURL: url)
            do {
                let maintenance = Endpoint<Item, ItemCode>(
                    .get, "scenarios/maintenance/b/products/1", requiresAuthentication: false)
                _ = try await client.send(maintenance)
                Issue.record("expected maintenance")
            } catch let error as APIError<AppCode, ItemCode> {
                guard case .general(.maintenance, _)? = error.serverError else {
                    Issue.record("expected maintenance, got \(error)")
                    return
                }
            }
        }
    }
}
