import Backstop
import Foundation

// The code of the DocC article "Sessions", as it is written there.

func signInAndKeepTheTokens() async throws {
    let tokens = try await client.send(
        Endpoint<Tokens, NoModuleCodes>(
            .post, "auth/sign-in", body: credentials, requiresAuthentication: false))
    keychain.save(tokens)
    session.signIn(tokens)
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
