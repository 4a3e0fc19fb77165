import Backstop
import BackstopTestSupport
import BackstopTesting
import BadBackend
import Clocks
import Foundation
import HTTPTypes
import Testing

extension BackstopClient {
    /// A refresh that never returns, on a test clock, in memory: its waiting calls end at the
    /// session's refresh timeout and the session keeps its credential.
    @Suite("Refresh timeout", .timeLimit(.minutes(1)))
    struct RefreshTimeoutTests {
        /// Refreshes `stale` to `fresh`; the first refresh never returns, deaf to cancellation,
        /// or returns once `release` yields.
        struct HangingAuthenticator: Authenticator {
            let refreshes = LockedValue(0)
            let started: AsyncStream<Int>.Continuation
            var release: AsyncStream<Void>?

            func apply(_ credential: String, to request: inout HTTPRequest) {
                request.headerFields[.authorization] = "Bearer \(credential)"
            }

            func refresh(_ credential: String) async throws -> String {
                let number = refreshes.withLock { count in
                    count += 1
                    return count
                }
                started.yield(number)
                if number == 1, let release {
                    for await _ in release { break }
                } else if number == 1 {
                    await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
                }
                return "fresh"
            }
        }

        /// Answers 200 to the fresh credential, 401 to any other.
        static func client(_ session: AuthSession<HangingAuthenticator>) -> APIClient<GeneralCode> {
            let transport = StubTransport()
            transport.stub(.get, "account") { request in
                request.headerFields[.authorization] == "Bearer fresh" ? .json(#"{"id": 1}"#) : .json("{}", status: .unauthorized)
            }
            return makeClient(transport, pipeline: quietPipeline { $0.authentication = .session(session) })
        }

        static let account = Endpoint<Account, NoModuleCodes>(.get, "account")

        @Test func aRefreshThatNeverReturnsEndsItsWaitingCallsAsTimedOutAndKeepsTheSession() async throws {
            let clock = TestClock()
            let (started, starts) = AsyncStream<Int>.makeStream()
            let session = AuthSession(authenticator: HangingAuthenticator(started: starts), credential: "stale", clock: clock)
            #expect(session.refreshTimeout == .seconds(30))
            let client = Self.client(session)
            let first = Task { await failure(of: client, Self.account) }
            var refreshes = started.makeAsyncIterator()
            #expect(await refreshes.next() == 1)
            // A second call waits for the same refresh.
            let second = Task { await failure(of: client, Self.account) }
            while session.refreshWaiters < 2, !Task.isCancelled { await Task.yield() }

            // Before its timeout, both still wait.
            await clock.advance(by: .seconds(29))
            #expect(session.refreshWaiters == 2)
            // Past it (a test clock keeps waiting a sleep that starts at its deadline), both end.
            await clock.advance(by: .seconds(2))
            for call in [first, second] {
                let error = await call.value
                #expect(transportReason(of: error) == .timedOut, "\(String(describing: error))")
            }
            #expect(session.credential == "stale")
            #expect(session.refreshWaiters == 0)

            // The next call refreshes again, and this refresh answers.
            #expect(try await client.send(Self.account) == Account(id: 1))
            #expect(await refreshes.next() == 2)
            #expect(session.credential == "fresh")
        }

        /// A backend that rotates refresh tokens retired the old one when it answered: an answer
        /// that comes after the timeout is still the session's, unless the session moved on.
        @Test func aRefreshThatAnswersAfterItsTimeoutStillGivesTheSessionItsCredential() async throws {
            let clock = TestClock()
            let (started, starts) = AsyncStream<Int>.makeStream()
            let (release, releasing) = AsyncStream<Void>.makeStream()
            let session = AuthSession(
                authenticator: HangingAuthenticator(started: starts, release: release), credential: "stale", clock: clock)
            let client = Self.client(session)
            let call = Task { await failure(of: client, Self.account) }
            var refreshes = started.makeAsyncIterator()
            #expect(await refreshes.next() == 1)
            await clock.advance(by: .seconds(31))
            #expect(transportReason(of: await call.value) == .timedOut)
            #expect(session.credential == "stale")
            releasing.yield()
            while session.credential != "fresh", !Task.isCancelled { await Task.yield() }
            // No second refresh: the late answer serves the next call.
            #expect(try await client.send(Self.account) == Account(id: 1))
            releasing.finish()
            starts.finish()
            #expect(await refreshes.next() == nil)
        }

        @Test func withoutARefreshTimeoutTheCallsWaitForTheRefresh() async throws {
            let clock = TestClock()
            let (started, starts) = AsyncStream<Int>.makeStream()
            let session = AuthSession(
                authenticator: HangingAuthenticator(started: starts), credential: "stale", refreshTimeout: nil, clock: clock)
            let client = Self.client(session)
            let call = Task { await failure(of: client, Self.account) }
            var refreshes = started.makeAsyncIterator()
            #expect(await refreshes.next() == 1)
            while session.refreshWaiters < 1, !Task.isCancelled { await Task.yield() }
            await clock.advance(by: .seconds(3600))
            #expect(session.refreshWaiters == 1)
            // Only its own cancellation ends it.
            call.cancel()
            #expect(transportReason(of: await call.value) == .cancelled)
        }
    }
}
