import Backstop
import BadBackend
import Clocks
import Foundation
import Testing

// The code of BadBackend's DocC catalogue and of its symbols' comments, as written there.

@Test("an access token expires on the server's clock")
func anAccessTokenExpiresOnTheServersClock() async throws {
    let clock = TestClock()
    let backend = BadBackend(configuration: .init(accessTokenLifetime: .seconds(60)), clock: clock)
    try await backend.withRunning { baseURL in
        let b = APIClient<AppCode>(
            baseURL: baseURL.appendingPathComponent("b"), contract: backendB,
            pipeline: ClientPipeline(logging: nil, metrics: nil, retry: .never))
        let tokens = try await b.send(
            Endpoint<Tokens, NoModuleCodes>(.post, "auth/sign-in", body: credentials, requiresAuthentication: false))
        await clock.advance(by: .seconds(61))
        let account = Endpoint<User, NoModuleCodes>(
            .get, "account", headerFields: [.authorization: "Bearer \(tokens.accessToken)"], requiresAuthentication: false)
        do {
            _ = try await b.send(account)
            Issue.record("expected the token to have expired")
        } catch let error as AppError<NoModuleCodes> {
            guard case .general(.tokenExpired, _)? = error.serverError else {
                Issue.record("expected tokenExpired, got \(error)")
                return
            }
        }
    }
}

@Test("a test counts the attempts the server received")
func theRequestLogCountsAttempts() async throws {
    let testClock = TestClock()
    let backend = BadBackend(clock: testClock)
    try await backend.withRunning { baseURL in
        let client = APIClient<AppCode>(
            baseURL: baseURL, contract: backendB,
            pipeline: ClientPipeline(logging: nil, metrics: nil, timeout: nil, clock: ImmediateClock()))
        _ = try? await client.send(Endpoint<[Product], NoModuleCodes>(.get, "scenarios/http-503/b/products"))
        #expect(await backend.requestLog.entries.count == 3)
    }
}
