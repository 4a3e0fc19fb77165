import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// One ``RequestCoalescing`` shared by clients of two servers and of two users, over loopback
    /// on both transports: each origin and each credential gets its own request and its own
    /// answer. The servers hold their answers until every call has joined, so what shares is
    /// decided before anything is answered. CI runs this suite under ThreadSanitizer.
    @Suite("Coalescing across origins and users", .timeLimit(.minutes(1)))
    struct CoalescingAcrossOriginsConcurrencyTests {
        /// BadBackend's echo, answered after the server's slow delay: who asked, and with what.
        static let slowEchoPath = "/scenarios/slow/b/echo"
        static let slowEcho = Endpoint<Echo, StudyGroupCode>(.get, String(slowEchoPath.dropFirst()))

        /// The request as the server saw it.
        struct Echo: Decodable, Sendable {
            let path: String
            let headers: [String: String]
        }

        /// Names the server a client talks to on each attempt, below coalescing (BadBackend's echo
        /// does not repeat `Host`), so that the two clients' calls are identical until they are sent.
        struct ServerName: ClientMiddleware {
            static let field = HTTPField.Name("X-Server")!
            let name: String

            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
            ) async throws -> (HTTPResponse, HTTPBody?) {
                var request = request
                request.headerFields[Self.field] = "\(name) \(baseURL.port ?? 0)"
                return try await next(request, body, baseURL)
            }
        }

        /// Waits until `coalescing` holds `exchanges` flights and `waiting` calls wait for them.
        static func waitUntil(_ coalescing: RequestCoalescing, exchanges: Int, waiting: Int) async {
            while coalescing.load != (exchanges, waiting), !Task.isCancelled { await Task.yield() }
        }

        /// Two servers, one shared instance, 20 identical GETs to each: each server sees one
        /// request, and each caller gets its own server's answer.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func twoOriginsEachGetTheirOwnAnswer(transport: TransportKind) async throws {
            let clockA = TestClock()
            let clockB = TestClock()
            try await withBackend(clock: clockA) { backendA, urlA in
                try await withBackend(clock: clockB) { backendB, urlB in
                    #expect(urlA != urlB)
                    let coalescing = RequestCoalescing()
                    func pipeline(_ name: String) -> ClientPipeline {
                        quietPipeline {
                            $0.coalescing = coalescing
                            $0.middlewares = [ServerName(name: name)]
                        }
                    }
                    let clientA = makeClient(urlA, transport, pipeline: pipeline("A"))
                    let clientB = makeClient(urlB, transport, pipeline: pipeline("B"))
                    let callsA = (0..<20).map { _ in Task { try await clientA.send(Self.slowEcho) } }
                    let callsB = (0..<20).map { _ in Task { try await clientB.send(Self.slowEcho) } }
                    _ = try await backendA.requestLog.arrival(where: { $0.path == Self.slowEchoPath })
                    _ = try await backendB.requestLog.arrival(where: { $0.path == Self.slowEchoPath })
                    await Self.waitUntil(coalescing, exchanges: 2, waiting: 38)

                    await clockA.advance(by: .seconds(3600))
                    await clockB.advance(by: .seconds(3600))
                    for call in callsA { #expect(try await call.value.headers["x-server"] == "A \(urlA.port ?? 0)") }
                    for call in callsB { #expect(try await call.value.headers["x-server"] == "B \(urlB.port ?? 0)") }
                    #expect(await backendA.hits(Self.slowEchoPath) == 1)
                    #expect(await backendB.hits(Self.slowEchoPath) == 1)
                    #expect(coalescing.load == (0, 0))
                }
            }
        }

        /// Two sessions with different credentials through one instance, 20 identical GETs each:
        /// the server sees one request with each credential, and each user gets the answer to theirs.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func twoSessionsNeverShareAnAnswer(transport: TransportKind) async throws {
            let serverClock = TestClock()
            try await withBackend(clock: serverClock) { backend, url in
                let coalescing = RequestCoalescing()
                func client(_ credential: String) -> APIClient<GeneralCode> {
                    let session = AuthSession(authenticator: BearerAuthenticator(), credential: credential)
                    return makeClient(
                        url, transport,
                        pipeline: quietPipeline {
                            $0.coalescing = coalescing
                            $0.authentication = .session(session)
                        })
                }
                let (one, two) = (client("one"), client("two"))
                let callsOne = (0..<20).map { _ in Task { try await one.send(Self.slowEcho) } }
                let callsTwo = (0..<20).map { _ in Task { try await two.send(Self.slowEcho) } }
                let sent = try await backend.requestLog.entries(where: { $0.path == Self.slowEchoPath }, atLeast: 2)
                await Self.waitUntil(coalescing, exchanges: 2, waiting: 38)

                await serverClock.advance(by: .seconds(3600))
                for call in callsOne { #expect(try await call.value.headers["authorization"] == "Bearer one") }
                for call in callsTwo { #expect(try await call.value.headers["authorization"] == "Bearer two") }
                #expect(Set(sent.map(\.credential)) == ["one", "two"])
                #expect(await backend.hits(Self.slowEchoPath) == 2)
                #expect(coalescing.load == (0, 0))
            }
        }

        /// A flight in the air while its session signs out and another user signs in: the calls
        /// made after the sign-in send their own request with the new credential, and the calls
        /// that joined before get the answer to the old one.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aFlightAcrossSignOutAndSignInIsNotShared(transport: TransportKind) async throws {
            let serverClock = TestClock()
            try await withBackend(clock: serverClock) { backend, url in
                let coalescing = RequestCoalescing()
                let session = AuthSession(authenticator: BearerAuthenticator(), credential: "one")
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.coalescing = coalescing
                        $0.authentication = .session(session)
                    })
                let before = (0..<20).map { _ in Task { try await client.send(Self.slowEcho) } }
                _ = try await backend.requestLog.arrival(where: { $0.path == Self.slowEchoPath })
                await Self.waitUntil(coalescing, exchanges: 1, waiting: 19)

                session.signOut()
                session.signIn("three")
                let after = (0..<20).map { _ in Task { try await client.send(Self.slowEcho) } }
                let sent = try await backend.requestLog.entries(where: { $0.path == Self.slowEchoPath }, atLeast: 2)
                await Self.waitUntil(coalescing, exchanges: 2, waiting: 38)

                await serverClock.advance(by: .seconds(3600))
                for call in before { #expect(try await call.value.headers["authorization"] == "Bearer one") }
                for call in after { #expect(try await call.value.headers["authorization"] == "Bearer three") }
                #expect(sent.map(\.credential) == ["one", "three"])
                #expect(await backend.hits(Self.slowEchoPath) == 2)
                #expect(coalescing.load == (0, 0))
            }
        }
    }
}
