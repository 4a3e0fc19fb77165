import Backstop
import BackstopTestSupport
import BadBackend
import Foundation
import OpenAPIRuntime
import Testing

extension BackstopClient.InMemoryStageTests {
    static let blocker = Endpoint<Item, StudyGroupCode>(.get, "products/2")

    /// A user signs in after a flight's calls joined and before its request goes out (the one
    /// place of a `ConcurrencyLimit` is taken, so the flight waits between coalescing and
    /// authentication): the request carries the new user's credential, so its answer is not
    /// shared; each waiting call sends its own.
    @Test func aSignInBetweenJoiningAndSendingSharesNothing() async throws {
        let coalescing = RequestCoalescing()
        let limit = ConcurrencyLimit(maximumConcurrentCalls: 1)
        let gate = Gate()
        let sent = SentRequests()
        let session = AuthSession(authenticator: BearerAuthenticator(), credential: "one")
        let pipeline = quietPipeline {
            $0.coalescing = coalescing
            $0.concurrencyLimit = limit
            $0.authentication = .session(session)
        }
        let client = Self.client(sent: sent, pipeline: pipeline) { _, request, url in
            if request.path?.hasSuffix("products/2") == true { await gate.wait() }
            return Self.ok("\(url.host ?? "") \(request.headerFields[.authorization] ?? "anonymous")")
        }
        let blocking = Task { try await client.send(Self.blocker).name }
        await sent.wait(for: 1)
        let leader = Task { try await client.send(Self.item).name }
        while limit.load.waiting < 1, !Task.isCancelled { await Task.yield() }
        let followers = (0..<3).map { _ in Task { try await client.send(Self.item).name } }
        await Self.waitUntil(coalescing, exchanges: 2, waiting: 3)
        // The flight was keyed for user one; user two signs in before it is sent.
        session.signIn("two")
        gate.open()
        #expect(try await blocking.value == "a.example Bearer one")
        #expect(try await leader.value == "a.example Bearer two")
        for call in followers { #expect(try await call.value == "a.example Bearer two") }
        // The blocker, the leader's request, then one request for each follower.
        #expect(sent.count == 5)
        #expect(sent.all.dropFirst().map { $0.request.headerFields[.authorization] } == Array(repeating: "Bearer two", count: 4))
        #expect(coalescing.load == (0, 0))
        #expect(coalescing.queuedTickets == 0)
    }

    /// A refresh is the same user: a flight whose request is refreshed and replayed (a 401, then
    /// the refreshed credential) still answers every call that joined it, with one request more.
    @Test func aRefreshWithinAFlightStillShares() async throws {
        let coalescing = RequestCoalescing()
        let gate = Gate()
        let sent = SentRequests()
        let session = AuthSession(authenticator: BearerAuthenticator(), credential: "one")
        let pipeline = quietPipeline {
            $0.coalescing = coalescing
            $0.authentication = .session(session)
        }
        let client = Self.client(sent: sent, pipeline: pipeline) { _, request, url in
            await gate.wait()
            let authorization = request.headerFields[.authorization] ?? "anonymous"
            if authorization == "Bearer one" { return Self.status(401) }
            return Self.ok("\(url.host ?? "") \(authorization)")
        }
        let calls = (0..<4).map { _ in Task { try await client.send(Self.item).name } }
        await Self.waitUntil(coalescing, exchanges: 1, waiting: 3)
        gate.open()
        for call in calls { #expect(try await call.value == "a.example Bearer one'") }
        #expect(sent.count == 2)
        #expect(session.credential == "one'")
        #expect(coalescing.load == (0, 0))
    }
}
