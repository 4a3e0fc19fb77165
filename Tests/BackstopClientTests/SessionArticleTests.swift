import Backstop
import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import Testing

/// The session code of the DocC article "Calling Your Backend", kept compiling and run against the server.
struct AccessTokens: Codable, Sendable {
    var accessToken: String
    var refreshToken: String
}

extension Endpoint where Payload == AccessTokens, Module == NoModuleCodes {
    static func refresh(_ refreshToken: String) -> Self {
        Endpoint(.post, "auth/refresh", body: ["refreshToken": refreshToken], requiresAuthentication: false)
    }
}

struct BackendBAuthenticator: Authenticator {
    let refresher: APIClient<AppCode>

    func apply(_ credential: AccessTokens, to request: inout HTTPRequest) {
        request.headerFields[.authorization] = "Bearer \(credential.accessToken)"
    }

    func refresh(_ credential: AccessTokens) async throws -> AccessTokens {
        try await refresher.send(.refresh(credential.refreshToken))
    }

    func secrets(of credential: AccessTokens) -> [String] {
        [credential.accessToken, credential.refreshToken]
    }
}

extension BackstopClient.ArticleTests {
    @Test func theArticlesSessionMiddlewaresInAClientAndAGeneratedClient() async throws {
        let server = try await TestServer.running()
        let baseURL = server.baseURL
        let savedTokens = AccessTokens(accessToken: "a1", refreshToken: "r1")
        let metrics = MetricsMiddleware()
        let general = GeneralCodeMiddleware(roles: [.maintenance])
        let auth = AuthenticationMiddleware(
            authenticator: BackendBAuthenticator(refresher: APIClient(baseURL: baseURL, contract: backendB)),
            credential: savedTokens,
            metrics: metrics
        )
        let client = APIClient<AppCode>(
            baseURL: baseURL,
            contract: backendB,
            middlewares: [LoggingMiddleware(), metrics, general, RetryMiddleware(), auth]
        )
        #expect(try await client.send(.item(7)) == Item(id: 7, name: "Item 7"))

        let classifier = ServerCodeClassifier(contract: backendB, generalCodes: AppCode.self)
        let authenticator = auth.authenticator
        let generated = UniversalClient(serverURL: baseURL, transport: TransportKind.urlSession.make(), middlewares: [
            LoggingMiddleware(),
            MetricsMiddleware(),
            GeneralCodeMiddleware(roles: [.maintenance], classifier: classifier),
            RetryMiddleware(classifier: classifier),
            AuthenticationMiddleware(authenticator: authenticator, credential: savedTokens, classifier: classifier),
        ])
        let item = try await BackstopClient.GeneratedClientTests.getItem(generated, path: "/items/7")
        #expect(item.status == 200)
    }
}
