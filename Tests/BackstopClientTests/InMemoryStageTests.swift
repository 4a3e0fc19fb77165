import Backstop
import BackstopTestSupport
import BackstopTesting
import BadBackend
import Clocks
import Foundation
import InMemoryLogging
import Logging
import OpenAPIRuntime
import Testing

/// A bearer token as the credential, for sessions in memory.
struct BearerAuthenticator: Authenticator {
    func apply(_ credential: String, to request: inout HTTPRequest) {
        request.headerFields[.authorization] = "Bearer \(credential)"
    }
    func refresh(_ credential: String) async throws -> String { credential + "'" }
    func secrets(of credential: String) -> [String] { [credential] }
}

extension BackstopClient {
    /// Each stage's rules proven in memory, on the public `StubTransport` and test clocks: no
    /// server, no sleeps; beside the loopback suites, which prove the same over HTTP.
    @Suite("Stages in memory", .timeLimit(.minutes(1)))
    struct InMemoryStageTests {
        static let hostA = URL(string: "https://a.example/v1")!
        static let hostB = URL(string: "https://b.example:8443/v1")!
        static let item = Endpoint<Item, StudyGroupCode>(.get, "products/1")

        /// A JSON body of `Item(id:name:)`, with `name` saying who answered.
        static func ok(_ name: String = "ok") -> StubResponse {
            StubResponse(status: .ok, body: Data(#"{"id":1,"name":"\#(name)"}"#.utf8))
        }

        static func status(_ code: Int, retryAfter: String? = nil) -> StubResponse {
            var fields = HTTPFields()
            if let retryAfter { fields[.retryAfter] = retryAfter }
            return StubResponse(status: .init(code: code), headerFields: fields, body: Data(#"{"message":"no"}"#.utf8))
        }

        /// A transport whose every request for ``item`` gets `responses`, in order, the last repeated.
        static func transport(_ responses: StubResponse..., clock: any Clock<Duration> = ContinuousClock()) -> StubTransport {
            let transport = StubTransport(clock: clock)
            transport.stub(.get, "products/1", responses: responses)
            return transport
        }

        /// A client on `baseURL` over `transport`, with no envelope.
        static func client(_ transport: StubTransport, on baseURL: URL = hostA, pipeline: ClientPipeline) -> APIClient<GeneralCode> {
            makeClient(transport, baseURL: baseURL, pipeline: pipeline)
        }

        static func breaker(clock: TestClock<Duration>, logs: InMemoryLogHandler? = nil) -> CircuitBreaker {
            CircuitBreaker(clock: clock, logger: logs.map { logs in Logger(label: "circuit") { _ in logs } })
        }

        // MARK: The circuit breaker counts what says the backend is failing

        /// A phone in a tunnel: 20 attempts offline (and 20 with a failed TLS handshake) leave the
        /// circuit closed, where each of them used to count as the backend failing.
        @Test(arguments: [URLError.Code.notConnectedToInternet, .secureConnectionFailed, .serverCertificateUntrusted])
        func failuresOfTheDeviceOrTLSLeaveTheCircuitClosed(code: URLError.Code) async throws {
            let clock = TestClock()
            let breaker = Self.breaker(clock: clock)
            let transport = Self.transport(.failure(URLError(code)))
            let client = Self.client(transport, pipeline: quietPipeline { $0.circuitBreaker = breaker })
            for _ in 0..<20 {
                let error = await failure(of: client, Self.item)
                #expect(transportReason(of: error) != nil)
            }
            #expect(transport.requests.count == 20)
            #expect(breaker.state(of: "a.example") == .closed)
        }

        /// A refused connection and a 503 are the backend failing: half of 10 attempts opens it.
        @Test(arguments: ["refused", "503", "429"])
        func aRefusedConnectionOrA503OpensTheCircuit(kind: String) async throws {
            let clock = TestClock()
            let breaker = Self.breaker(clock: clock)
            let answer: StubResponse =
                switch kind {
                case "refused": .failure(URLError(.cannotConnectToHost))
                case "503": Self.status(503)
                default: Self.status(429)
                }
            let transport = Self.transport(answer)
            let client = Self.client(transport, pipeline: quietPipeline { $0.circuitBreaker = breaker })
            for _ in 0..<10 { _ = await failure(of: client, Self.item) }
            #expect(breaker.state(of: "a.example") == .open)
            guard case .client(let refused)? = await failure(of: client, Self.item) else {
                Issue.record("the call after the circuit opened was sent")
                return
            }
            #expect(refused.reason == .circuitOpen)
            #expect(refused.retryAfter == .seconds(15))
            #expect(transport.requests.count == 10)
        }

        /// Statuses retrying does not fix (501, 505) and a 404 count as the backend answering.
        @Test(arguments: [501, 505, 404])
        func statusesRetryDoesNotRetryLeaveTheCircuitClosed(code: Int) async throws {
            let breaker = Self.breaker(clock: TestClock())
            let transport = Self.transport(Self.status(code))
            let client = Self.client(transport, pipeline: quietPipeline { $0.circuitBreaker = breaker })
            for _ in 0..<20 { _ = await failure(of: client, Self.item) }
            #expect(transport.requests.count == 20)
            #expect(breaker.state(of: "a.example") == .closed)
        }

        /// The app replaces the rule: here offline counts, and 503 does not.
        @Test func theAppsOwnPredicateDecidesWhatCounts() async throws {
            let breaker = CircuitBreaker(clock: TestClock(), logger: nil) { failure in failure == .transport(.offline) }
            let transport = StubTransport()
            transport.stub(
                .get, "products/1",
                responses: Array(repeating: Self.status(503), count: 20) + [.failure(URLError(.notConnectedToInternet))])
            let client = Self.client(transport, pipeline: quietPipeline { $0.circuitBreaker = breaker })
            for _ in 0..<20 { _ = await failure(of: client, Self.item) }
            #expect(breaker.state(of: "a.example") == .closed)
            // Twenty successes, then twenty failures: half of the window.
            for _ in 0..<19 { _ = await failure(of: client, Self.item) }
            #expect(breaker.state(of: "a.example") == .closed)
            _ = await failure(of: client, Self.item)
            #expect(breaker.state(of: "a.example") == .open)
            #expect(transport.requests.count == 40)
        }

        /// A 503 with `Retry-After: 10` opens the circuit for 10 s, shorter than the 15 s break,
        /// and the refused call's error, its alert and the log line all say 10 seconds.
        @Test func retryAfterSaysHowLongTheCircuitStaysOpen() async throws {
            let clock = TestClock()
            let logs = InMemoryLogHandler.keepingDebug()
            let breaker = Self.breaker(clock: clock, logs: logs)
            let transport = Self.transport(Self.status(503, retryAfter: "10"), Self.ok())
            let client = Self.client(transport, pipeline: quietPipeline { $0.circuitBreaker = breaker })
            _ = await failure(of: client, Self.item)
            let error = try #require(await failure(of: client, Self.item))
            guard case .client(let refused) = error else {
                Issue.record("expected circuitOpen, got \(error)")
                return
            }
            #expect(refused.reason == .circuitOpen)
            #expect(refused.retryAfter == .seconds(10))
            let alert = try #require(RecoveryPolicy().alert(for: error, locale: Locale(identifier: "en")))
            #expect(alert.retryAfter == .seconds(10))
            #expect(alert.message.contains("10 seconds"))
            #expect(logs.entries.map(\.message.description) == ["circuit a.example: closed → open for 10 s"])
            await clock.advance(by: .seconds(10))
            #expect(try await client.send(Self.item).name == "ok")
            #expect(breaker.state(of: "a.example") == .closed)
            #expect(transport.requests.count == 2)
        }

        /// `Retry-After` longer than the cap opens it for the cap.
        @Test func retryAfterIsCappedAtTheMaximumBreak() async throws {
            let breaker = CircuitBreaker(maximumBreakDuration: .seconds(60), clock: TestClock(), logger: nil)
            let client = Self.client(
                Self.transport(Self.status(503, retryAfter: "3600")), pipeline: quietPipeline { $0.circuitBreaker = breaker })
            _ = await failure(of: client, Self.item)
            guard case .client(let refused)? = await failure(of: client, Self.item) else {
                Issue.record("the circuit did not open")
                return
            }
            #expect(refused.retryAfter == .seconds(60))
        }

        // MARK: Hedging

        // Below, `HedgingFixture().pipeline()` hedges after 2 s on a test clock nobody advances:
        // any hedge sent is sent because of a failure.

        /// A fast 503, which the retry rules would retry, does not win: the hedge goes at once,
        /// without waiting for the delay, and its 200 is the answer.
        @Test func aHandledFailureDoesNotWinTheRace() async throws {
            let transport = Self.transport(Self.status(503), Self.ok("hedge"))
            let client = Self.client(transport, pipeline: HedgingFixture().pipeline())
            let response = try await client.response(for: Self.item)
            #expect(response.payload.name == "hedge")
            #expect(response.attempts == 2)
            #expect(transport.requests.count == 2)
        }

        /// An answer the rules would not retry (a 404) wins at once: no hedge.
        @Test func anAnswerTheRulesKeepWins() async throws {
            let transport = Self.transport(Self.status(404))
            let client = Self.client(transport, pipeline: HedgingFixture().pipeline())
            guard case .http(let failure)? = await failure(of: client, Self.item) else {
                Issue.record("expected the 404")
                return
            }
            #expect(failure.status.code == 404)
            #expect(transport.requests.count == 1)
        }

        /// When every request fails, the first failure is the call's, as `Hedging`'s rules say:
        /// a timeout, then a refused hedge, ends as `timedOut`; a 503, then a refused hedge, as the 503.
        @Test func whenEveryRequestFailsTheFirstFailureIsThrown() async throws {
            let client = Self.client(
                Self.transport(.failure(URLError(.timedOut)), .failure(URLError(.cannotConnectToHost))),
                pipeline: HedgingFixture().pipeline())
            #expect(transportReason(of: await failure(of: client, Self.item)) == .timedOut)

            let answered = Self.client(
                Self.transport(Self.status(503), .failure(URLError(.cannotConnectToHost))), pipeline: HedgingFixture().pipeline())
            guard case .http(let failure)? = await failure(of: answered, Self.item) else {
                Issue.record("expected the 503")
                return
            }
            #expect(failure.status.code == 503)
        }

        /// A failure retrying does not fix (offline) sends no hedge at once: it is the outcome.
        @Test func aFailureTheRulesDoNotRetrySendsNoHedge() async throws {
            let transport = Self.transport(.failure(URLError(.notConnectedToInternet)))
            let client = Self.client(transport, pipeline: HedgingFixture().pipeline())
            #expect(transportReason(of: await failure(of: client, Self.item)) == .offline)
            #expect(transport.requests.count == 1)
        }

        /// A slow attempt gets its hedge after the delay on the test clock, and the first answer wins.
        @Test func aSlowAttemptIsHedgedAfterTheDelay() async throws {
            let fixture = HedgingFixture()
            // The first answer waits on a clock nobody advances.
            let transport = Self.transport(
                Self.ok("attempt 1").delayed(by: .seconds(60)), Self.ok("attempt 2"), clock: TestClock())
            let client = Self.client(transport, pipeline: fixture.pipeline())
            let call = Task { try await client.send(Self.item) }
            _ = try await transport.requests(atLeast: 1)
            await fixture.clock.advance(by: .seconds(3))
            #expect(try await call.value.name == "attempt 2")
            #expect(transport.requests.count == 2)
        }

        // MARK: Coalescing never shares across origins or credentials

        /// A transport that holds every request until `release` passes a second, then answers who
        /// it was for: the base URL's host and the credential it carried.
        static func held(on release: TestClock<Duration>) -> StubTransport {
            let transport = StubTransport(clock: release)
            transport.stub(.get, "products/1") { request in
                Self.ok("\(request.baseURL.host ?? "") \(request.headerFields[.authorization] ?? "anonymous")")
                    .delayed(by: .seconds(1))
            }
            return transport
        }

        static func waitUntil(_ coalescing: RequestCoalescing, exchanges: Int, waiting: Int) async {
            while coalescing.load != (exchanges, waiting), !Task.isCancelled { await Task.yield() }
        }

        /// One instance, two clients on two origins: each origin gets its own request and answer.
        @Test func twoOriginsNeverShareAnAnswer() async throws {
            let coalescing = RequestCoalescing()
            let release = TestClock()
            let transport = Self.held(on: release)
            let pipeline = quietPipeline { $0.coalescing = coalescing }
            let a = Self.client(transport, on: Self.hostA, pipeline: pipeline)
            let b = Self.client(transport, on: Self.hostB, pipeline: pipeline)
            let callsA = (0..<5).map { _ in Task { try await a.send(Self.item).name } }
            let callsB = (0..<5).map { _ in Task { try await b.send(Self.item).name } }
            await Self.waitUntil(coalescing, exchanges: 2, waiting: 8)
            // Past the delay, not to it: a sleep that starts at a test clock's now waits on.
            await release.advance(by: .seconds(2))
            for call in callsA { #expect(try await call.value == "a.example anonymous") }
            for call in callsB { #expect(try await call.value == "b.example anonymous") }
            #expect(transport.requests.count == 2)
        }

        /// Two sessions through one instance, and one session across a sign-out and sign-in while
        /// a flight is in the air: each credential gets its own request and answer.
        @Test func twoCredentialsNeverShareAnAnswer() async throws {
            let coalescing = RequestCoalescing()
            let release = TestClock()
            let transport = Self.held(on: release)
            let one = AuthSession(authenticator: BearerAuthenticator(), credential: "one")
            let two = AuthSession(authenticator: BearerAuthenticator(), credential: "two")
            func pipeline(_ session: AuthSession<BearerAuthenticator>) -> ClientPipeline {
                quietPipeline {
                    $0.coalescing = coalescing
                    $0.authentication = .session(session)
                }
            }
            let userOne = Self.client(transport, pipeline: pipeline(one))
            let userTwo = Self.client(transport, pipeline: pipeline(two))
            let first = (0..<3).map { _ in Task { try await userOne.send(Self.item).name } }
            let second = (0..<3).map { _ in Task { try await userTwo.send(Self.item).name } }
            await Self.waitUntil(coalescing, exchanges: 2, waiting: 4)
            _ = try await transport.requests(atLeast: 2)
            // The first user signs out and another signs in on the same session, mid-flight.
            one.signOut()
            one.signIn("three")
            let third = Task { try await userOne.send(Self.item).name }
            _ = try await transport.requests(atLeast: 3)
            #expect(coalescing.load == (3, 4))
            await release.advance(by: .seconds(2))
            for call in first { #expect(try await call.value == "a.example Bearer one") }
            for call in second { #expect(try await call.value == "a.example Bearer two") }
            #expect(try await third.value == "a.example Bearer three")
            #expect(transport.requests.count == 3)
        }
    }
}
