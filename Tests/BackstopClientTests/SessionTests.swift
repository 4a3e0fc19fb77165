import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import Testing

extension BackstopClient {
    /// Every session rule against BadBackend on 127.0.0.1, on a test clock, with both transports.
    @Suite("Sessions", .timeLimit(.minutes(1)))
    struct SessionTests {
        static let both = TransportKind.allCases

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(
            "an expired token, as a code in a 200 or with a 401, is refreshed once and the request replayed with the new one",
            arguments: both, ExpiredTokenAnswer.allCases)
        func expiredTokenIsRefreshedAndReplayed(transport: TransportKind, answer: ExpiredTokenAnswer) async throws {
            try await Session.run(transport, expiredToken: answer) { session in
                await session.expireToken()
                #expect(await session.account() == .success(Account(id: 1)))
                #expect(await session.credentials(for: "/b/account") == ["access-1", "access-2"])
                #expect(await session.refreshes() == 1)
                #expect(session.auth.credential?.access == "access-2")
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a bare 401 refreshes and replays once; a second 401 reaches the caller", arguments: both)
        func bare401IsReplayedOnce(transport: TransportKind) async throws {
            try await Session.run(transport) { session in
                let error = await session.account("scenarios/http-401/b/account").failure
                guard case .http(let failure)? = error else {
                    Issue.record("got \(String(describing: error))")
                    return
                }
                #expect(failure.status == .unauthorized)
                #expect(await session.credentials(for: "/scenarios/http-401/b/account") == ["access-1", "access-2"])
                #expect(await session.refreshes() == 1)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a credential known to be expired is refreshed before sending", arguments: both)
        func knownExpiryRefreshesFirst(transport: TransportKind) async throws {
            try await Session.run(transport, knowsExpiry: true) { session in
                await session.expireToken()
                #expect(await session.account() == .success(Account(id: 1)))
                #expect(await session.credentials(for: "/b/account") == ["access-2"])
                #expect(await session.refreshes() == 1)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("concurrent failures make exactly one refresh; each request is replayed once with the new credential", arguments: both)
        func concurrentFailuresShareOneRefresh(transport: TransportKind) async throws {
            try await Session.run(transport) { session in
                await session.expireToken()
                let results = await withTaskGroup(of: Result<Account, SessionError>.self) { group in
                    for _ in 0..<20 { group.addTask { await session.account() } }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                #expect(results.count == 20)
                #expect(results.allSatisfy { (try? $0.get()) == Account(id: 1) })
                #expect(await session.refreshes() == 1)
                let sent = await session.credentials(for: "/b/account")
                #expect(sent.count { $0 == "access-2" } == 20)
                #expect(sent.count <= 40)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a request that failed with an older credential is replayed with the current one, without a refresh", arguments: both)
        func staleCredentialIsReplayedWithoutRefresh(transport: TransportKind) async throws {
            try await Session.run(transport) { session in
                // Held by the backend until its clock reaches 120 s; only its first attempt is slow.
                async let slow = session.account("scenarios/slow/b/account", query: ["failures": "1"])
                _ = try await session.backend.requestLog.entries(atLeast: 2)
                await session.expireToken()
                #expect(await session.account() == .success(Account(id: 1)))
                await session.clock.advance(by: .seconds(20))
                #expect(await slow == .success(Account(id: 1)))
                #expect(await session.credentials(for: "/scenarios/slow/b/account?failures=1") == ["access-1", "access-2"])
                #expect(await session.refreshes() == 1)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a request that starts during a refresh waits for it", arguments: both)
        func requestsStartingDuringARefreshWait(transport: TransportKind) async throws {
            // The refresh is held for 120 s: a timeout of its own longer than that.
            try await Session.run(transport, refresh: .slow, refreshTimeout: .seconds(300)) { session in
                await session.expireToken()
                async let first = session.account()
                // The refresh has reached the backend, which holds it for 120 s on its clock: the
                // second request starts while it is under way, so it can only wait for it.
                _ = try await session.backend.requestLog.entries(atLeast: 3)
                async let second = session.account("b/account", query: ["during": "refresh"])
                // Past the refresh's deadline, not onto it: a test clock keeps waiting a sleep that starts at its deadline.
                await session.clock.advance(by: .seconds(121))
                #expect(await first == .success(Account(id: 1)))
                #expect(await second == .success(Account(id: 1)))
                #expect(await session.credentials(for: "/b/account?during=refresh") == ["access-2"])
                #expect(await session.refreshes() == 1)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a failed refresh fails every waiting request with its error and signs out once", arguments: both)
        func failedRefreshFailsEveryWaiter(transport: TransportKind) async throws {
            try await Session.run(transport, refresh: .fails) { session in
                await session.expireToken()
                let errors = await withTaskGroup(of: SessionError?.self) { group in
                    for _ in 0..<10 { group.addTask { await session.account().failure } }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                #expect(errors.count == 10)
                for error in errors {
                    #expect(error?.clientReason == .tokenRefreshFailed)
                    #expect(error?.refreshError?.role == .signInRequired)
                    #expect(error?.recoveryCategory == .unauthorized)
                }
                // Later requests fail the same way without another refresh.
                #expect(await session.account().failure?.clientReason == .tokenRefreshFailed)
                #expect(await session.refreshes() == 1)
                #expect(session.auth.credential == nil)
                let reasons = try await session.signedOutReasons()
                #expect(reasons == [.refreshFailed, .signInRequired])
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("too many refreshes in the window is an error, not a loop; the window slides on the clock", arguments: both)
        func tooManyRefreshesIsAnError(transport: TransportKind) async throws {
            let limit = RefreshLimit(maximumRefreshes: 3, window: .seconds(60))
            try await Session.run(transport, limit: limit) { session in
                let signedOut = session.auth.signedOutEvents
                let alwaysExpired = "scenarios/token-expired/b/account"
                for _ in 0..<3 { #expect(await session.account(alwaysExpired).failure?.role == .tokenExpired) }
                await session.clock.advance(by: .seconds(60))
                // The first three have left the window.
                for _ in 0..<3 { #expect(await session.account(alwaysExpired).failure?.role == .tokenExpired) }
                let error = await session.account(alwaysExpired).failure
                #expect(error?.clientReason == .tooManyRefreshes)
                #expect(error?.recoveryCategory == .unauthorized)
                #expect(await session.refreshes() == 6)
                var events = signedOut.makeAsyncIterator()
                #expect(await events.next()?.reason == .tooManyRefreshes)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a sign-in-required code signs out without a refresh; the caller gets the code", arguments: both, [200, 401])
        func signInRequiredSignsOut(transport: TransportKind, status: Int) async throws {
            try await Session.run(transport) { session in
                let signedOut = session.auth.signedOutEvents
                let error = await session.account("scenarios/sign-in-required/b/account", query: ["status": "\(status)"]).failure
                #expect(error?.role == .signInRequired)
                #expect(await session.account().failure?.clientReason == .signedOut)
                #expect(await session.refreshes() == 0)
                var events = signedOut.makeAsyncIterator()
                #expect(await events.next()?.reason == .signInRequired)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("endpoints that need no authentication carry no credential", arguments: both)
        func noAuthenticationNoCredential(transport: TransportKind) async throws {
            try await Session.run(transport) { session in
                let products = Endpoint<[Product], NoModuleCodes>(.get, "b/products", requiresAuthentication: false)
                _ = try await session.client.send(products)
                #expect(await session.credentials(for: "/b/products") == [nil])
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a maintenance code raises one app-wide event before the callers, who each still get their error", arguments: both)
        func maintenanceRaisesOneEvent(transport: TransportKind) async throws {
            let general = GeneralCodeEvents(roles: [.maintenance, .rateLimited])
            let codeEvents = general.events
            try await Session.run(transport, pipeline: { $0.generalCodes = general }) { session in
                let errors = await withTaskGroup(of: SessionError?.self) { group in
                    for _ in 0..<20 {
                        group.addTask { await session.account("scenarios/maintenance/b/account", query: ["status": "503"]).failure }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                #expect(errors.count == 20)
                #expect(errors.allSatisfy { $0?.role == .maintenance })
                // One more episode, of another role, marks the end of the events to read.
                #expect(await session.account("scenarios/rate-limited/b/account").failure?.role == .rateLimited)
                let seen = await events(in: codeEvents) { $0 == .rateLimited }
                #expect(seen == [.maintenance, .rateLimited])
            }
        }
    }
}

struct Product: Decodable, Sendable {
    var id: Int
}

extension APIClient where General == GeneralCode {
    /// A fresh credential from BadBackend's sign-in.
    func signIn(_ clock: TestClock<Duration>) async throws -> BackendCredential {
        let signIn = Endpoint<Tokens, NoModuleCodes>(.post, "b/auth/sign-in", body: ["user": "ada"], requiresAuthentication: false)
        return BackendCredential(try await send(signIn), clock: clock)
    }
}
