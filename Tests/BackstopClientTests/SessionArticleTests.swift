import Backstop
import BackstopTestSupport
import BadBackend
import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import Testing

/// The session code of the DocC article "Calling Your Backend", run against the server in a client
/// and a generated client. Its tokens type keeps the name `AccessTokens`, since this target's
/// `Tokens` is SessionSupport's; the article's code exactly as written compiles in DocumentationTests.
struct AccessTokens: Codable, Sendable {
    var accessToken: String
    var refreshToken: String
}

extension Endpoint where Payload == AccessTokens, Module == NoModuleCodes {
    static func refresh(_ refreshToken: String) -> Self {
        Endpoint(.post, "b/auth/refresh", body: ["refreshToken": refreshToken], requiresAuthentication: false)
    }

    /// Not in the article, whose tokens are saved from an earlier sign-in: BadBackend's tokens.
    static let signIn = Endpoint(.post, "b/auth/sign-in", body: ["user": "ada"], requiresAuthentication: false)
}

struct BackendBAuthenticator: Authenticator {
    let refresher: APIClient<GeneralCode>

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
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func theArticlesSessionInAClientAndAGeneratedClient() async throws {
        try await withBackend { _, baseURL in
            let savedTokens = try await APIClient<GeneralCode>(baseURL: baseURL, contract: EnvelopeContract.b).send(.signIn)
            let session = AuthSession(
                authenticator: BackendBAuthenticator(refresher: APIClient(baseURL: baseURL, contract: EnvelopeContract.b)),
                credential: savedTokens
            )
            let general = GeneralCodeEvents(roles: [.maintenance])
            let client = APIClient<GeneralCode>(
                baseURL: baseURL,
                contract: EnvelopeContract.b,
                pipeline: ClientPipeline(generalCodes: general, authentication: .session(session))
            )
            #expect(try await client.send(.item(1)) == .one)

            let generated = UniversalClient(
                serverURL: baseURL, transport: TransportKind.urlSession.make(),
                middlewares: [
                    PipelineMiddleware(
                        client.pipeline, contract: EnvelopeContract.b, generalCodes: GeneralCode.self,
                        unauthenticatedOperations: ["signIn", "refreshToken"])
                ])
            let item = try await BackstopClient.GeneratedClientTests.getItem(generated, path: "/b/products/1")
            #expect(item.status == 200)
        }
    }
}
