import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import Testing

/// An access token that expires on the server's clock, seen by a client without an
/// authenticator (token refresh, issue 7, lands separately): the app gets the token-expired
/// general code and the alert asks the user to sign in.
@Suite("End to end: an expired token", .timeLimit(.minutes(1)), .englishMessages)
struct TokenExpiryTests {
    struct Tokens: Decodable, Sendable {
        var accessToken: String
        var refreshToken: String
    }

    struct Account: Decodable, Sendable, Equatable {
        var id: Int
        var name: String
    }

    static func account(token: String) -> Endpoint<Account, NoModuleCodes> {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        return Endpoint(.get, "b/account", headerFields: headers)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "The token-expired code in a 200 or a 401",
        arguments: ExpiredTokenAnswer.allCases.flatMap { answer in TransportKind.allCases.map { (answer, $0) } })
    func expired(_ answer: ExpiredTokenAnswer, _ transport: TransportKind) async throws {
        let serverClock = TestClock()
        let configuration = BadBackend.Configuration(accessTokenLifetime: .seconds(60), expiredToken: answer)
        try await withBackend(configuration, clock: serverClock) { backend, url in
            let client = makeClient(url, transport)
            let tokens = try await client.send(Endpoint<Tokens, NoModuleCodes>(.post, "b/auth/sign-in", requiresAuthentication: false))
            #expect(tokens.accessToken == "access-1")
            #expect(try await client.send(Self.account(token: tokens.accessToken)) == Account(id: 1, name: "Ada"))

            await serverClock.advance(by: .seconds(60))
            let error: APIError<GeneralCode, NoModuleCodes>
            do throws(APIError<GeneralCode, NoModuleCodes>) {
                _ = try await client.send(Self.account(token: tokens.accessToken))
                Issue.record("an expired token was accepted")
                return
            } catch let caught {
                error = caught
            }
            switch answer {
            case .tokenExpiredCode:
                #expect(error == .server(.general(.tokenExpired, message: "Token expired")))
            case .unauthorized:
                guard case .http(let failure) = error else {
                    Issue.record("expected an HTTP failure, got \(error)")
                    return
                }
                #expect(failure.status == .unauthorized)
                #expect(failure.code == GeneralCode.tokenExpired.code)
                #expect(failure.message == "Token expired")
            }
            #expect(error.role == .tokenExpired)
            let alert = try #require(RecoveryPolicy().alert(for: error, locale: Locale(identifier: "en")))
            #expect(alert.category == .unauthorized)
            #expect(alert.actions.map(\.id) == [.signIn, .cancel])
            #expect(await backend.requestLog.entries.map(\.credential) == [nil, "access-1", "access-1"])
        }
    }
}
