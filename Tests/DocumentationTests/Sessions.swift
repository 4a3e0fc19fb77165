import Backstop
import BadBackend
import Foundation
import Testing

// The code of the DocC article "Sessions", as it is written there, run against BadBackend.

/// The article's sign-in, with the client and session a test gives it instead of the global
/// ones, whose base URL names `backstop serve --port 8080`.
struct SignInScreen {
    let client: APIClient<AppCode>
    let session: AuthSession<BackendBAuthenticator>

    func signInAndKeepTheTokens() async throws {
        let tokens = try await client.send(
            Endpoint<Tokens, NoModuleCodes>(
                .post, "auth/sign-in", body: credentials, requiresAuthentication: false))
        keychain.save(tokens)
        session.signIn(tokens)
    }
}

/// An authenticator that saves each refreshed credential before it is used.
struct KeychainAuthenticator: Authenticator {
    let refresher: APIClient<AppCode>

    func apply(_ credential: Tokens, to request: inout HTTPRequest) {
        request.headerFields[.authorization] = "Bearer \(credential.accessToken)"
    }

    func refresh(_ credential: Tokens) async throws -> Tokens {
        let fresh = try await refresher.send(.refresh(credential.refreshToken))
        keychain.save(fresh)
        return fresh
    }
}

@Suite("Sessions, as written, against BadBackend's backend B")
struct SessionsArticleTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("signing in starts the session, and the authenticator's refresh rotates the tokens")
    func signInAndRefresh() async throws {
        let backend = BadBackend()
        try await backend.withRunning { url in
            let b = url.appendingPathComponent("b")
            let refresher = APIClient<AppCode>(baseURL: b, contract: backendB)
            let session = AuthSession(authenticator: BackendBAuthenticator(refresher: refresher), credential: nil)
            let screen = SignInScreen(
                client: APIClient<AppCode>(baseURL: b, contract: backendB, pipeline: ClientPipeline(authentication: .session(session))),
                session: session)
            try await screen.signInAndKeepTheTokens()
            let tokens = try #require(session.credential)
            #expect(tokens.accessToken == "access-1")
            let account = try await screen.client.send(Endpoint<User, NoModuleCodes>(.get, "account"))
            #expect(account.name == "Ada")
            let fresh = try await KeychainAuthenticator(refresher: refresher).refresh(tokens)
            #expect(fresh.accessToken == "access-2" && fresh.refreshToken == "refresh-2")
            let sent = await backend.requestLog.entries.map { "\($0.method) \($0.path) \($0.credential ?? "-")" }
            #expect(sent == ["POST /b/auth/sign-in -", "GET /b/account access-1", "POST /b/auth/refresh refresh-1"])
        }
    }
}
