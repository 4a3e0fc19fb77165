import Backstop
import Foundation
@_spi(Generated) import OpenAPIRuntime

// What the documentation's snippets leave to the app — its screens, its Keychain, its models —
// declared here so that every snippet compiles as written. Nothing here is Backstop's API.

/// The backend the snippets talk to: BadBackend's backend B when a test runs one.
let baseURL = URL(string: "http://127.0.0.1:8080/b")!

/// The tokens the app saved at its last launch.
let savedTokens: Tokens? = nil

/// A client without authentication, for sign-in and refresh.
let refresher = APIClient<AppCode>(baseURL: baseURL, contract: backendB)

/// The signed-in user's session.
let session = AuthSession(authenticator: BackendBAuthenticator(refresher: refresher), credential: savedTokens)

/// A user of the README's and BackstopJSON's examples.
struct User: Decodable {
    var id: Int
    var name: String
}

/// What the sign-in form collected.
let credentials = ["user": "ada", "password": "correct horse"]

/// The app's own Keychain wrapper.
final class Keychain: Sendable {
    func save(_ tokens: Tokens) {}
}

let keychain = Keychain()

/// Where the app writes files.
let reportURL = FileManager.default.temporaryDirectory.appendingPathComponent("drift.json")

/// The app's own messages, merged over Backstop's.
let appMessages = MessageCatalog(["en": ["server.11210005": "That team code doesn't exist."]])

/// A body the study-group feature sends.
struct JoinRequest: Encodable, Sendable {
    var code: String
}

/// The cart feature's codes.
enum CartCode: Int, ServerCode {
    case soldOut = 30001
}

/// A screen that loads a feed.
final class Feed: Sendable {
    func load() async throws(AppError<NoModuleCodes>) {}
}

let feed = Feed()

/// The study-group screen's team-code field.
@MainActor
final class TeamCodeField {
    func showHint() {}
}

@MainActor let teamCodeField = TeamCodeField()

extension RecoveryAction {
    static let openStatusPage = RecoveryAction("openStatusPage", title: "Status Page")
}

/// What the stand-ins below were asked to show, for a test that runs a snippet and reads it.
final class Screen: @unchecked Sendable {
    @TaskLocal static var current: Screen?
    private let lock = NSLock()
    private var shown: [String] = []

    /// What the stand-ins showed while `body` ran.
    static func record(_ body: () async -> Void) async -> [String] {
        let screen = Screen()
        await $current.withValue(screen) { await body() }
        return screen.lock.withLock { screen.shown }
    }

    static func show(_ text: String) {
        guard let screen = current else { return }
        screen.lock.withLock { screen.shown.append(text) }
    }
}

func show(_ value: Any) { Screen.show("show \(value)") }
func show(_ group: StudyGroup) {}
func show(_ message: String?) {}
func showGone() { Screen.show("showGone") }
func showClassNotFound() {}
func showTeamCodeHint() {}
func showSignIn() {}
func signIn() {}
func showMaintenanceBanner() {}
func showAlert(_ error: any Error) { Screen.show("showAlert \(error)") }
func showAlert(_ message: String) {}

/// Stands in for the `Client` swift-openapi-generator writes from an OpenAPI document, which
/// sends each operation through a `UniversalClient` exactly so.
struct Client {
    let client: UniversalClient

    init(serverURL: URL, transport: any ClientTransport, middlewares: [any ClientMiddleware] = []) {
        client = UniversalClient(serverURL: serverURL, transport: transport, middlewares: middlewares)
    }
}

/// Stands in for an app's own middleware: a request ID on each attempt.
struct RequestIDMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[HTTPField.Name("X-Request-ID")!] = UUID().uuidString
        return try await next(request, body, baseURL)
    }
}

/// Stands in for the generated `Servers`, the document's server URLs.
enum Servers {
    enum Server1 {
        static func url() throws -> URL { baseURL }
    }
}
