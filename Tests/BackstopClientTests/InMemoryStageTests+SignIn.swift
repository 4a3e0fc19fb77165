import Backstop
import BackstopTestSupport
import BackstopTesting
import BadBackend
import Clocks
import Foundation
import OpenAPIRuntime
import Testing

extension BackstopClient.InMemoryStageTests {
    static let blocker = Endpoint<Item, StudyGroupCode>(.get, "products/2")

    /// Who a request was for: its base URL's host and the credential it carried.
    static func who(_ request: StubTransport.ReceivedRequest) -> String {
        "\(request.baseURL.host ?? "") \(request.headerFields[.authorization] ?? "anonymous")"
    }

    /// A user signs in after a flight's calls joined and before its request goes out (the one
    /// place of a `ConcurrencyLimit` is taken, so the flight waits between coalescing and
    /// authentication): the request carries the new user's credential, so its answer is not
    /// shared; each waiting call sends its own.
    @Test func aSignInBetweenJoiningAndSendingSharesNothing() async throws {
        let coalescing = RequestCoalescing()
        let limit = ConcurrencyLimit(maximumConcurrentCalls: 1)
        let release = TestClock()
        let transport = StubTransport(clock: release)
        // The blocker's answer waits for `release`; the item's comes at once.
        transport.stub(.get, "products/2") { request in Self.ok(Self.who(request)).delayed(by: .seconds(1)) }
        transport.stub(.get, "products/1") { request in Self.ok(Self.who(request)) }
        let session = AuthSession(authenticator: BearerAuthenticator(), credential: "one")
        let pipeline = quietPipeline {
            $0.coalescing = coalescing
            $0.concurrencyLimit = limit
            $0.authentication = .session(session)
        }
        let client = Self.client(transport, pipeline: pipeline)
        let blocking = Task { try await client.send(Self.blocker).name }
        _ = try await transport.requests(atLeast: 1)
        let leader = Task { try await client.send(Self.item).name }
        while limit.load.waiting < 1, !Task.isCancelled { await Task.yield() }
        let followers = (0..<3).map { _ in Task { try await client.send(Self.item).name } }
        await Self.waitUntil(coalescing, exchanges: 2, waiting: 3)
        // The flight was keyed for user one; user two signs in before it is sent.
        session.signIn("two")
        // Past the delay, not to it: a sleep that starts at a test clock's now waits on.
        await release.advance(by: .seconds(2))
        #expect(try await blocking.value == "a.example Bearer one")
        #expect(try await leader.value == "a.example Bearer two")
        for call in followers { #expect(try await call.value == "a.example Bearer two") }
        // The blocker, the leader's request, then one request for each follower.
        #expect(transport.requests.count == 5)
        #expect(transport.requests.dropFirst().map { $0.headerFields[.authorization] } == Array(repeating: "Bearer two", count: 4))
        #expect(coalescing.load == (0, 0))
        #expect(coalescing.queuedTickets == 0)
    }

    /// A refresh is the same user: a flight whose request is refreshed and replayed (a 401, then
    /// the refreshed credential) still answers every call that joined it, with one request more.
    @Test func aRefreshWithinAFlightStillShares() async throws {
        let coalescing = RequestCoalescing()
        let release = TestClock()
        let transport = StubTransport(clock: release)
        // Only the first credential's 401 waits for `release`: the replay is sent after the
        // clock has moved, and must not wait for another move.
        transport.stub(.get, "products/1") { request in
            request.headerFields[.authorization] == "Bearer one" ? Self.status(401).delayed(by: .seconds(1)) : Self.ok(Self.who(request))
        }
        let session = AuthSession(authenticator: BearerAuthenticator(), credential: "one")
        let pipeline = quietPipeline {
            $0.coalescing = coalescing
            $0.authentication = .session(session)
        }
        let client = Self.client(transport, pipeline: pipeline)
        let calls = (0..<4).map { _ in Task { try await client.send(Self.item).name } }
        await Self.waitUntil(coalescing, exchanges: 1, waiting: 3)
        _ = try await transport.requests(atLeast: 1)
        await release.advance(by: .seconds(2))
        for call in calls { #expect(try await call.value == "a.example Bearer one'") }
        #expect(transport.requests.count == 2)
        #expect(session.credential == "one'")
        #expect(coalescing.load == (0, 0))
    }
}
