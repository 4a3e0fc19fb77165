import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import OpenAPIRuntime
import Synchronization
import Testing

/// Sends each attempt to `failingPath` instead, while on: the backend fails the call's own URL
/// over the network, its saved answer's key unchanged.
/// The user's name in a header of its own: BadBackend refuses bearer tokens it did not issue.
struct UserHeaderAuthenticator: Authenticator {
    static let field = HTTPField.Name("X-Test-User")!

    func apply(_ credential: String, to request: inout HTTPRequest) { request.headerFields[Self.field] = credential }
    func refresh(_ credential: String) async throws -> String { credential }
    func savedAnswerUser(of credential: String) -> String? { credential }
}

struct OutageSwitch: ClientMiddleware {
    private final class State: Sendable {
        let path = Mutex<String?>(nil)
    }
    private let state = State()

    /// Sends every attempt to `path` (a BadBackend scenario) from now on; `nil` sends them as made.
    func fail(to path: String?) { state.path.withLock { $0 = path } }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let path = state.path.withLock({ $0 }) { request.path = path }
        return try await next(request, body, baseURL)
    }
}

extension BackstopClient {
    /// Saved answers against BadBackend over loopback, on both transports: an open circuit, a
    /// 503, a timeout with coalesced and hedged calls, two users, a sign-out, a 4xx.
    @Suite("Saved answers over loopback", .timeLimit(.minutes(1)))
    struct SavedAnswerLoopbackTests {
        static let item = Endpoint<Item, StudyGroupCode>(.get, "b/products/1")

        static func pipeline(_ store: InMemorySavedAnswerStore, _ configure: (inout ClientPipeline) -> Void = { _ in })
            -> ClientPipeline
        {
            quietPipeline {
                $0.savedAnswers = SavedAnswers(store: store)
                configure(&$0)
            }
        }

        static func breaker() -> CircuitBreaker { CircuitBreaker(clock: TestClock(), logger: nil) }

        /// Opens the host's circuit with a 503 that says to come back in 60 s.
        static func openCircuit(_ client: APIClient<GeneralCode>) async {
            _ = await failure(of: client, RetryTests.statusEndpoint(code: 503, failures: .max, retryAfter: "60"))
        }

        static func standsFor(_ response: APIResponse<Item>) -> StudyGroupError? {
            response.savedAnswer?.failure as? StudyGroupError
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func anOpenCircuitAnswersTheSavedPayloadAtOnceWithoutTheNetwork(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let store = InMemorySavedAnswerStore()
                let client = makeClient(url, transport, pipeline: Self.pipeline(store) { $0.circuitBreaker = Self.breaker() })
                #expect(try await client.send(Self.item) == .one)
                await Self.openCircuit(client)
                let response = try await client.response(for: Self.item)
                #expect(response.payload == .one)
                #expect(response.attempts == 0)
                guard case .client(let served)? = Self.standsFor(response) else {
                    Issue.record("expected circuitOpen")
                    return
                }
                #expect(served.reason == .circuitOpen)
                #expect(await backend.hits("/b/products/1") == 1)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func a503OverTheNetworkIsAnsweredAndA4xxNever(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let outage = OutageSwitch()
                let client = makeClient(url, transport, pipeline: Self.pipeline(InMemorySavedAnswerStore()) { $0.middlewares = [outage] })
                #expect(try await client.send(Self.item) == .one)
                outage.fail(to: RetryTests.statusPath(503) + "?failures=1000000")
                let response = try await client.response(for: Self.item)
                #expect(response.payload == .one)
                guard case .http(let served)? = Self.standsFor(response) else {
                    Issue.record("expected the 503")
                    return
                }
                #expect(served.status == .serviceUnavailable)
                outage.fail(to: RetryTests.statusPath(404) + "?failures=1000000")
                guard case .http(let notFound)? = await failure(of: client, Self.item) else {
                    Issue.record("a 404 was answered from the store")
                    return
                }
                #expect(notFound.status == .notFound)
                #expect(await backend.hits(RetryTests.statusPath(503)) == 1)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aTimeoutOfCoalescedHedgedCallsAnswersEachTheSavedPayload(transport: TransportKind) async throws {
            let serverClock = TestClock()
            try await withBackend(clock: serverClock) { backend, url in
                let clock = TestClock()
                let timeoutClock = TestClock()
                let outage = OutageSwitch()
                let coalescing = RequestCoalescing()
                let client = makeClient(
                    url, transport,
                    pipeline: Self.pipeline(InMemorySavedAnswerStore()) {
                        $0.coalescing = coalescing
                        $0.hedging = Hedging(delay: .seconds(1))
                        $0.timeout = .seconds(5)
                        $0.clock = clock
                        $0.timeoutClock = timeoutClock
                        $0.middlewares = [outage]
                    })
                #expect(try await client.send(Self.item) == .one)
                let slow = "/scenarios/slow/b/products/1"
                outage.fail(to: slow)
                let calls = (0..<3).map { _ in Task { try await client.response(for: Self.item) } }
                _ = try await backend.requestLog.arrival(where: { $0.path == slow })
                while coalescing.load.waitingCalls < 2 { await Task.yield() }
                await clock.advance(by: .seconds(1))
                _ = try await backend.requestLog.entries(where: { $0.path == slow }, atLeast: 2)
                await timeoutClock.advance(by: .seconds(5))
                for call in calls {
                    let response = try await call.value
                    #expect(response.payload == .one)
                    #expect(transportReason(of: Self.standsFor(response)) == .timedOut)
                }
                #expect(await backend.hits(slow) == 2)
                await serverClock.advance(by: .seconds(3600))
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func twoUsersNeverSeeEachOthersAnswersAndASignOutPurges(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let store = InMemorySavedAnswerStore()
                let breaker = Self.breaker()
                let alice = AuthSession(authenticator: UserHeaderAuthenticator(), credential: "alice")
                let bob = AuthSession(authenticator: UserHeaderAuthenticator(), credential: "bob")
                let aliceClient = makeClient(
                    url, transport,
                    pipeline: Self.pipeline(store) {
                        $0.circuitBreaker = breaker
                        $0.authentication = .session(alice)
                    })
                let bobClient = makeClient(
                    url, transport,
                    pipeline: Self.pipeline(store) {
                        $0.circuitBreaker = breaker
                        $0.authentication = .session(bob)
                    })
                let first: Item = try await aliceClient.send(Self.item)
                #expect(first == .one)
                await Self.openCircuit(aliceClient)
                // Bob has nothing saved: his call fails as the circuit says.
                guard case .client(let refused)? = await failure(of: bobClient, Self.item) else {
                    Issue.record("bob was answered alice's saved answer")
                    return
                }
                #expect(refused.reason == .circuitOpen)
                let saved = try await aliceClient.response(for: Self.item)
                #expect(saved.savedAnswer != nil)
                alice.signOut()
                #expect(store.load.answers == 0)
                alice.signIn("alice")
                #expect(await failure(of: aliceClient, Self.item) != nil)
                #expect(await backend.hits("/b/products/1") == 1)
            }
        }
    }
}
