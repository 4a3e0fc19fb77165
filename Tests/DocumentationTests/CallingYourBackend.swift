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

// The general codes' error type, as "Unwrapping Envelopes and Handling Errors" declares it
// after them, and APIError's own example (its DocC comment) of a feature's switch.
typealias AppError<Module: ServerCode> = APIError<AppCode, Module>

func handle(_ error: AppError<StudyGroupCode>) {
    switch error {
    case .server(.module(.wrongTeamCode, _)): showTeamCodeHint()
    case .server(.general(.tokenExpired, _)): signIn()
    case .server(.module(_, let message)), .server(.general(_, let message)), .server(.unknown(_, let message)):
        show(message)
    case .transport, .http, .decoding, .client: showAlert(error)
    }
}

enum ProductCode: Int, ServerCode {
    case notFound = 40400
}

struct Product: Codable, Sendable {
    var id: Int
    var name: String
    var price: Double
}

let backendB = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))

let client = APIClient<AppCode>(
    baseURL: URL(string: "http://127.0.0.1:8080/b")!,
    contract: backendB,
    pipeline: ClientPipeline(redaction: Redaction(headerFields: [HTTPField.Name("X-Api-Key")!]))
)

extension Endpoint where Payload == Product, Module == ProductCode {
    static func product(_ id: Int) -> Self { Endpoint(.get, "products/\(id)") }
}

extension Endpoint where Payload == [Product], Module == NoModuleCodes {
    static var products: Self { Endpoint(.get, "products", timeout: .seconds(10)) }
}

/// The article's calls, made with the client a test gives them instead of the article's global
/// one, whose base URL names `backstop serve --port 8080`.
struct ProductScreen {
    let client: APIClient<AppCode>

    func sendAProduct() async throws -> Product {
        let product = try await client.send(.product(1))
        return product
    }

    func showProduct(_ id: Int) async {
        do {
            show(try await client.send(.product(id)))
        } catch {
            if case .module(.notFound, _)? = error.serverError { return showGone() }
            switch error {
            case .transport(let failure) where failure.reason == .cancelled: break
            case .transport, .http, .decoding, .server, .client: showAlert(error)
            }
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
        transport: StreamingURLSessionTransport(),
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
                let maintenance = Endpoint<Product, ProductCode>(
                    .get, "scenarios/maintenance/b/products/1", requiresAuthentication: false)
                _ = try await client.send(maintenance)
                Issue.record("expected maintenance")
            } catch let error as APIError<AppCode, ProductCode> {
                guard case .general(.maintenance, _)? = error.serverError else {
                    Issue.record("expected maintenance, got \(error)")
                    return
                }
            }
        }
    }

    @Test("the article's endpoints and switch, with its contract and pipeline, against BadBackend's backend B")
    func theArticlesCallsAgainstBadBackend() async throws {
        let backend = BadBackend()
        try await backend.withRunning { url in
            let screen = ProductScreen(
                client: APIClient<AppCode>(baseURL: url.appendingPathComponent("b"), contract: backendB, pipeline: client.pipeline))
            let product = try await screen.sendAProduct()
            #expect(product.id == 1 && product.name == "iPhone 17" && product.price == 999.5)
            #expect(try await screen.client.send(.products).map(\.id) == [1, 2, 3])
            #expect(await Screen.record { await screen.showProduct(2) } == ["show Product(id: 2, name: \"AirPods\", price: 179.0)"])
            #expect(await Screen.record { await screen.showProduct(8) } == ["showGone"])
            // The article's log lines: each path and code as BadBackend answers them.
            let paths = await backend.requestLog.entries.map(\.path)
            #expect(paths == ["/b/products/1", "/b/products", "/b/products/2", "/b/products/8"])
        }
    }
}
