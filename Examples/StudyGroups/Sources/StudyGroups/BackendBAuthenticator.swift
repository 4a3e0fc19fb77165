import Backstop

/// Backend B's bearer tokens, refreshed at `POST b/auth/refresh`, each new pair saved before
/// it is used: a backend that rotates refresh tokens has already invalidated the old one.
public struct BackendBAuthenticator: Authenticator {
    let refresher: APIClient<AppCode>
    let store: TokenStore

    public func apply(_ credential: Tokens, to request: inout HTTPRequest) {
        request.headerFields[.authorization] = "Bearer \(credential.accessToken)"
    }

    public func refresh(_ credential: Tokens) async throws -> Tokens {
        let fresh = try await refresher.send(
            Endpoint<Tokens, NoModuleCodes>(
                .post, "b/auth/refresh", body: ["refreshToken": credential.refreshToken], requiresAuthentication: false))
        store.save(fresh)
        return fresh
    }

    public func secrets(of credential: Tokens) -> [String] { [credential.accessToken, credential.refreshToken] }
}
