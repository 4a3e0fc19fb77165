import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import Testing

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("Auth: short-lived tokens on an injected clock", .timeLimit(.minutes(1)))
struct AuthTests {
    static func signIn(_ url: URL) async throws -> (access: String, refresh: String) {
        let answer = try await HTTP.fetch(url, "/b/auth/sign-in", method: "POST", json: #"{"username":"ada","password":"x"}"#)
        let access = try #require(answer.value(at: "data.accessToken") as? String)
        let refresh = try #require(answer.value(at: "data.refreshToken") as? String)
        return (access, refresh)
    }

    static func refresh(_ url: URL, _ refreshToken: String) async throws -> Fetched {
        try await HTTP.fetch(url, "/b/auth/refresh", method: "POST", json: #"{"refreshToken":"\#(refreshToken)"}"#)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Sign-in issues numbered tokens with their lifetime")
    func signIn() async throws {
        try await withBackend(.init(accessTokenLifetime: .seconds(90))) { _, url in
            let answer = try await HTTP.fetch(url, "/a/auth/sign-in", method: "POST")
            #expect(
                answer.text
                    == #"{"statusCode":200,"message":"success","result":{"data":{"accessToken":"access-1","refreshToken":"refresh-1","tokenType":"Bearer","expiresIn":90,"scopes":["read","write"]}}}"#
            )
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The account needs a token; a missing or unknown one is 401 with sign-in required")
    func account() async throws {
        try await withBackend { _, url in
            for token in [nil, "forged"] as [String?] {
                let refused = try await HTTP.fetch(url, "/b/account", token: token)
                #expect(refused.status == 401)
                #expect(refused.value(at: "code") as? Int == GeneralCode.signInRequired.rawValue)
            }
            let tokens = try await Self.signIn(url)
            let account = try await HTTP.fetch(url, "/b/account", token: tokens.access)
            #expect(account.status == 200)
            #expect(account.value(at: "data.name") as? String == "Ada")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A token expires when the clock passes its lifetime: the token-expired code in a 200")
    func expiryAsCode() async throws {
        let clock = TestClock()
        try await withBackend(.init(accessTokenLifetime: .seconds(60)), clock: clock) { _, url in
            let tokens = try await Self.signIn(url)
            await clock.advance(by: .seconds(59))
            let answer1 = try await HTTP.fetch(url, "/b/products/1", token: tokens.access)
            #expect(answer1.value(at: "data.id") as? Int == 1)
            await clock.advance(by: .seconds(1))
            let expired = try await HTTP.fetch(url, "/b/products/1", token: tokens.access)
            #expect(expired.status == 200)
            #expect(expired.text == #"{"code":11001,"msg":"Token expired","data":null}"#)
            // Without a token the same resource is public.
            let answer2 = try await HTTP.fetch(url, "/b/products/1")
            #expect(answer2.value(at: "data.id") as? Int == 1)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Or, configured so, a 401 carrying the token-expired code")
    func expiryAs401() async throws {
        let clock = TestClock()
        try await withBackend(.init(accessTokenLifetime: .seconds(60), expiredToken: .unauthorized), clock: clock) { _, url in
            let tokens = try await Self.signIn(url)
            await clock.advance(by: .seconds(61))
            let expired = try await HTTP.fetch(url, "/c/account", token: tokens.access)
            #expect(expired.status == 401)
            #expect(expired.value(at: "statusCode") as? Int == GeneralCode.tokenExpired.rawValue)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Refresh rotates the tokens: the new access token works, the old refresh token does not")
    func refresh() async throws {
        let clock = TestClock()
        try await withBackend(.init(accessTokenLifetime: .seconds(60)), clock: clock) { _, url in
            let first = try await Self.signIn(url)
            await clock.advance(by: .seconds(120))
            let refreshed = try await Self.refresh(url, first.refresh)
            #expect(refreshed.value(at: "data.accessToken") as? String == "access-2")
            #expect(refreshed.value(at: "data.refreshToken") as? String == "refresh-2")
            let answer3 = try await HTTP.fetch(url, "/b/account", token: "access-2")
            #expect(answer3.status == 200)
            let reused = try await Self.refresh(url, first.refresh)
            #expect(reused.status == 401)
            #expect(reused.value(at: "code") as? Int == GeneralCode.signInRequired.rawValue)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Refresh can be told to fail")
    func refreshFails() async throws {
        try await withBackend(.init(refresh: .fails)) { backend, url in
            let tokens = try await Self.signIn(url)
            let failed = try await Self.refresh(url, tokens.refresh)
            #expect(failed.status == 401)
            #expect(failed.value(at: "code") as? Int == GeneralCode.signInRequired.rawValue)
            await backend.setRefreshBehaviour(.succeeds)
            let succeeded = try await Self.refresh(url, tokens.refresh)
            #expect(succeeded.value(at: "data.accessToken") as? String == "access-2")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Refresh can be told to be slow, on the server's clock")
    func refreshSlow() async throws {
        let clock = TestClock()
        try await withBackend(.init(slowAnswerDelay: .seconds(5)), clock: clock) { backend, url in
            let tokens = try await Self.signIn(url)
            await backend.setRefreshBehaviour(.slow)
            let answer = Task {
                try await Self.refresh(url, tokens.refresh)
            }
            let entries = try await backend.requestLog.entries(atLeast: 2)
            #expect(entries.last?.credential == tokens.refresh)
            await clock.advance(by: .seconds(6))
            #expect(try await answer.value.value(at: "data.accessToken") as? String == "access-2")
        }
    }
}
