import ArgumentParser
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import Testing

@testable import BackstopCLI

/// `backstop serve`'s options: each `BadBackend.Configuration` setting a user would try.
@Suite("backstop serve", .timeLimit(.minutes(1)))
struct ServeCommandTests {
    static func parse(_ arguments: [String]) throws -> ServeCommand {
        try #require(try BackstopCommand.parseAsRoot(["serve"] + arguments) as? ServeCommand)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("With no options it serves BadBackend's defaults on loopback")
    func defaults() throws {
        let configuration = try Self.parse([]).backendConfiguration(seed: 1)
        let defaults = BadBackend.Configuration()
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 0)
        #expect(configuration.randomFaults == nil)
        #expect(configuration.accessTokenLifetime == defaults.accessTokenLifetime)
        #expect(configuration.expiredToken == defaults.expiredToken)
        #expect(configuration.refresh == defaults.refresh)
        #expect(configuration.slowAnswerDelay == defaults.slowAnswerDelay)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Each option sets its setting")
    func options() throws {
        let command = try Self.parse([
            "--port", "8080", "--fault-rate", "0.25", "--token-lifetime", "10", "--expired-token", "401",
            "--refresh", "unavailable", "--slow-delay", "0.5",
        ])
        let configuration = command.backendConfiguration(seed: 7)
        #expect(configuration.port == 8080)
        #expect(configuration.randomFaults?.rate == 0.25)
        #expect(configuration.randomFaults?.seed == 7)
        #expect(configuration.accessTokenLifetime == .seconds(10))
        #expect(configuration.expiredToken == .unauthorized)
        #expect(configuration.refresh == .unavailable)
        #expect(configuration.slowAnswerDelay == .milliseconds(500))
    }

    @Test(
        "A value it cannot serve is refused with the values it can",
        arguments: [
            (["--token-lifetime", "0"], "--token-lifetime must be at least 1 second"),
            (["--expired-token", "200"], "--expired-token must be code or 401"),
            (["--refresh", "sometimes"], "--refresh must be one of succeeds, fails, slow, unavailable, rejected"),
            (["--slow-delay=-1"], "--slow-delay must be 0 to 3600 seconds"),
        ])
    func refused(arguments: [String], message: String) {
        do {
            _ = try BackstopCommand.parseAsRoot(["serve"] + arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(BackstopCommand.message(for: error) == message)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("--token-lifetime and --expired-token decide when and how a token expires")
    func tokenLifetime() async throws {
        let configuration = try Self.parse(["--token-lifetime", "10", "--expired-token", "401"]).backendConfiguration(seed: 1)
        let clock = TestClock()
        try await withBackend(configuration, clock: clock) { _, url in
            let signIn = try await HTTP.fetch(url, "/b/auth/sign-in", method: "POST")
            #expect(signIn.value(at: "data.expiresIn") as? Int == 10)
            let token = try #require(signIn.value(at: "data.accessToken") as? String)
            #expect(try await HTTP.fetch(url, "/b/account", token: token).status == 200)
            await clock.advance(by: .seconds(10))
            let expired = try await HTTP.fetch(url, "/b/account", token: token)
            #expect(expired.status == 401)
            #expect(expired.value(at: "code") as? Int == GeneralCode.tokenExpired.rawValue)
        }
    }
}
