import Backstop
import BackstopTesting
import Foundation
import StudyGroups
import Testing

// The app's calls, unit-tested on BackstopTesting's stub transport: no server, no waiting.
@Suite(.timeLimit(.minutes(1))) struct NetworkingTests {
    let transport = StubTransport()
    let store = TokenStore()
    let networking: Networking

    init() {
        networking = Networking(baseURL: URL(string: "https://api.example.com")!, store: store, transport: transport)
    }

    @Test func signInThenOneRefreshWhenTheTokenExpires() async throws {
        transport.stub(.post, "b/auth/sign-in", .json(#"{"code": 200, "msg": "OK", "data": {"accessToken": "a1", "refreshToken": "r1"}}"#))
        transport.stub(.post, "b/auth/refresh", .json(#"{"code": 200, "msg": "OK", "data": {"accessToken": "a2", "refreshToken": "r2"}}"#))
        transport.stub(
            .get, "b/account",
            .json(#"{"code": 11001, "msg": "Token expired", "data": null}"#),
            .json(#"{"code": 200, "msg": "OK", "data": {"id": 1, "name": "Ada"}}"#))

        try await networking.signIn(user: "ada")
        #expect(try await networking.account() == Account(id: 1, name: "Ada"))

        #expect(store.tokens == Tokens(accessToken: "a2", refreshToken: "r2"))
        #expect(transport.requests.map(\.path) == ["/b/auth/sign-in", "/b/account", "/b/auth/refresh", "/b/account"])
        #expect(transport.requests.map { $0.headerFields[.authorization] } == [nil, "Bearer a1", nil, "Bearer a2"])
    }

    @Test func offlineIsATransportError() async throws {
        transport.stub(.post, "b/auth/sign-in", .failure(URLError(.notConnectedToInternet)))
        do {
            try await networking.signIn(user: "ada")
            Issue.record("expected offline")
        } catch {
            guard case .transport(let failure) = error else { throw error }
            #expect(failure.reason == .offline)
        }
    }
}
