import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import InMemoryLogging
import Logging
import OpenAPIRuntime
import Synchronization
import Testing

/// What reached a ``MockTransport``: each request with its base URL, in order.
final class SentRequests: Sendable {
    private let sent = Mutex<[(request: HTTPRequest, baseURL: URL)]>([])

    func append(_ request: HTTPRequest, _ baseURL: URL) { sent.withLock { $0.append((request, baseURL)) } }
    var count: Int { sent.withLock { $0.count } }
    var all: [(request: HTTPRequest, baseURL: URL)] { sent.withLock { $0 } }

    /// Returns once `count` requests have arrived (or the test's task is cancelled).
    func wait(for count: Int) async {
        while self.count < count, !Task.isCancelled { await Task.yield() }
    }
}

/// Holds whoever waits until it opens, and lets everyone through after.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(waiter) }
                return state.isOpen
            }
            if isOpen { waiter.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A bearer token as the credential, for sessions in memory.
struct BearerAuthenticator: Authenticator {
    func apply(_ credential: String, to request: inout HTTPRequest) {
        request.headerFields[.authorization] = "Bearer \(credential)"
    }
    func refresh(_ credential: String) async throws -> String { credential + "'" }
    func secrets(of credential: String) -> [String] { [credential] }
}

extension BackstopClient {
    /// Each stage's rules proven in memory, on a ``MockTransport`` and test clocks: no server,
    /// no sleeps; beside the loopback suites, which prove the same over HTTP.
    @Suite("Stages in memory", .timeLimit(.minutes(1)))
    struct InMemoryStageTests {
        static let hostA = URL(string: "https://a.example/v1")!
        static let hostB = URL(string: "https://b.example:8443/v1")!
        static let item = Endpoint<Item, StudyGroupCode>(.get, "products/1")

        /// A JSON body of `Item(id:name:)`, with `name` saying who answered.
        static func ok(_ name: String = "ok") -> (HTTPResponse, HTTPBody?) {
            (HTTPResponse(status: .ok), HTTPBody(#"{"id":1,"name":"\#(name)"}"#))
        }

        static func status(_ code: Int, retryAfter: String? = nil) -> (HTTPResponse, HTTPBody?) {
            var response = HTTPResponse(status: .init(code: code))
            if let retryAfter { response.headerFields[.retryAfter] = retryAfter }
            return (response, HTTPBody(#"{"message":"no"}"#))
        }

        /// A client on `baseURL` whose transport records each request, then answers it with `answer`.
        static func client(
            _ baseURL: URL = hostA, sent: SentRequests, pipeline: ClientPipeline,
            answer: @escaping @Sendable (Int, HTTPRequest, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) -> APIClient<GeneralCode> {
            let transport = MockTransport { request, _, url, _ in
                sent.append(request, url)
                return try await answer(sent.count, request, url)
            }
            return APIClient<GeneralCode>(
                baseURL: baseURL, contract: EnvelopeContract.noEnvelope, decoder: ResilientJSONDecoder(), pipeline: pipeline,
                transport: transport)
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
            let sent = SentRequests()
            let client = Self.client(sent: sent, pipeline: quietPipeline { $0.circuitBreaker = breaker }) { _, _, _ in
                throw URLError(code)
            }
            for _ in 0..<20 {
                let error = await failure(of: client, Self.item)
                #expect(transportReason(of: error) != nil)
            }
            #expect(sent.count == 20)
            #expect(breaker.state(of: "a.example") == .closed)
        }

        /// A refused connection and a 503 are the backend failing: half of 10 attempts opens it.
        @Test(arguments: ["refused", "503", "429"])
        func aRefusedConnectionOrA503OpensTheCircuit(kind: String) async throws {
            let clock = TestClock()
            let breaker = Self.breaker(clock: clock)
            let sent = SentRequests()
            let client = Self.client(sent: sent, pipeline: quietPipeline { $0.circuitBreaker = breaker }) { _, _, _ in
                switch kind {
                case "refused": throw URLError(.cannotConnectToHost)
                case "503": return Self.status(503)
                default: return Self.status(429)
                }
            }
            for _ in 0..<10 { _ = await failure(of: client, Self.item) }
            #expect(breaker.state(of: "a.example") == .open)
            guard case .client(let refused)? = await failure(of: client, Self.item) else {
                Issue.record("the call after the circuit opened was sent")
                return
            }
            #expect(refused.reason == .circuitOpen)
            #expect(refused.retryAfter == .seconds(15))
            #expect(sent.count == 10)
        }

        /// Statuses retrying does not fix (501, 505) and a 404 count as the backend answering.
        @Test(arguments: [501, 505, 404])
        func statusesRetryDoesNotRetryLeaveTheCircuitClosed(code: Int) async throws {
            let breaker = Self.breaker(clock: TestClock())
            let sent = SentRequests()
            let client = Self.client(sent: sent, pipeline: quietPipeline { $0.circuitBreaker = breaker }) { _, _, _ in
                Self.status(code)
            }
            for _ in 0..<20 { _ = await failure(of: client, Self.item) }
            #expect(sent.count == 20)
            #expect(breaker.state(of: "a.example") == .closed)
        }

        /// The app replaces the rule: here offline counts, and 503 does not.
        @Test func theAppsOwnPredicateDecidesWhatCounts() async throws {
            let breaker = CircuitBreaker(clock: TestClock(), logger: nil) { failure in failure == .transport(.offline) }
            let sent = SentRequests()
            let client = Self.client(sent: sent, pipeline: quietPipeline { $0.circuitBreaker = breaker }) { n, _, _ in
                if n <= 20 { return Self.status(503) }
                throw URLError(.notConnectedToInternet)
            }
            for _ in 0..<20 { _ = await failure(of: client, Self.item) }
            #expect(breaker.state(of: "a.example") == .closed)
            // Twenty successes, then twenty failures: half of the window.
            for _ in 0..<19 { _ = await failure(of: client, Self.item) }
            #expect(breaker.state(of: "a.example") == .closed)
            _ = await failure(of: client, Self.item)
            #expect(breaker.state(of: "a.example") == .open)
            #expect(sent.count == 40)
        }

        /// A 503 with `Retry-After: 10` opens the circuit for 10 s, shorter than the 15 s break,
        /// and the refused call's error, its alert and the log line all say 10 seconds.
        @Test func retryAfterSaysHowLongTheCircuitStaysOpen() async throws {
            let clock = TestClock()
            let logs = InMemoryLogHandler()
            let breaker = Self.breaker(clock: clock, logs: logs)
            let sent = SentRequests()
            let client = Self.client(sent: sent, pipeline: quietPipeline { $0.circuitBreaker = breaker }) { n, _, _ in
                n == 1 ? Self.status(503, retryAfter: "10") : Self.ok()
            }
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
            #expect(sent.count == 2)
        }

        /// `Retry-After` longer than the cap opens it for the cap.
        @Test func retryAfterIsCappedAtTheMaximumBreak() async throws {
            let breaker = CircuitBreaker(maximumBreakDuration: .seconds(60), clock: TestClock(), logger: nil)
            let client = Self.client(sent: SentRequests(), pipeline: quietPipeline { $0.circuitBreaker = breaker }) { _, _, _ in
                Self.status(503, retryAfter: "3600")
            }
            _ = await failure(of: client, Self.item)
            guard case .client(let refused)? = await failure(of: client, Self.item) else {
                Issue.record("the circuit did not open")
                return
            }
            #expect(refused.retryAfter == .seconds(60))
        }

        // MARK: Hedging

        static func hedgingPipeline(maximumHedges: Int = 1) -> ClientPipeline {
            // A delay on a test clock nobody advances: any hedge sent is sent because of a failure.
            quietPipeline { $0.hedging = Hedging(delay: .seconds(2), maximumHedges: maximumHedges) }
        }

        /// A fast 503, which the retry rules would retry, does not win: the hedge goes at once,
        /// without waiting for the delay, and its 200 is the answer.
        @Test func aHandledFailureDoesNotWinTheRace() async throws {
            let sent = SentRequests()
            let client = Self.client(sent: sent, pipeline: Self.hedgingPipeline()) { n, _, _ in
                n == 1 ? Self.status(503) : Self.ok("hedge")
            }
            let response = try await client.response(for: Self.item)
            #expect(response.payload.name == "hedge")
            #expect(response.attempts == 2)
            #expect(sent.count == 2)
        }

        /// An answer the rules would not retry (a 404) wins at once: no hedge.
        @Test func anAnswerTheRulesKeepWins() async throws {
            let sent = SentRequests()
            let client = Self.client(sent: sent, pipeline: Self.hedgingPipeline()) { _, _, _ in Self.status(404) }
            guard case .http(let failure)? = await failure(of: client, Self.item) else {
                Issue.record("expected the 404")
                return
            }
            #expect(failure.status.code == 404)
            #expect(sent.count == 1)
        }

        /// When every request fails, the first failure is the call's, as `Hedging`'s rules say:
        /// a timeout, then a refused hedge, ends as `timedOut`; a 503, then a refused hedge, as the 503.
        @Test func whenEveryRequestFailsTheFirstFailureIsThrown() async throws {
            let client = Self.client(sent: SentRequests(), pipeline: Self.hedgingPipeline()) { n, _, _ in
                throw URLError(n == 1 ? .timedOut : .cannotConnectToHost)
            }
            #expect(transportReason(of: await failure(of: client, Self.item)) == .timedOut)

            let answered = Self.client(sent: SentRequests(), pipeline: Self.hedgingPipeline()) { n, _, _ in
                if n == 1 { return Self.status(503) }
                throw URLError(.cannotConnectToHost)
            }
            guard case .http(let failure)? = await failure(of: answered, Self.item) else {
                Issue.record("expected the 503")
                return
            }
            #expect(failure.status.code == 503)
        }

        /// A failure retrying does not fix (offline) sends no hedge at once: it is the outcome.
        @Test func aFailureTheRulesDoNotRetrySendsNoHedge() async throws {
            let sent = SentRequests()
            let client = Self.client(sent: sent, pipeline: Self.hedgingPipeline()) { _, _, _ in
                throw URLError(.notConnectedToInternet)
            }
            #expect(transportReason(of: await failure(of: client, Self.item)) == .offline)
            #expect(sent.count == 1)
        }

        /// A slow attempt gets its hedge after the delay on the test clock, and the first answer wins.
        @Test func aSlowAttemptIsHedgedAfterTheDelay() async throws {
            let clock = TestClock()
            let release = TestClock()
            let sent = SentRequests()
            let client = Self.client(
                sent: sent,
                pipeline: quietPipeline {
                    $0.hedging = Hedging(delay: .seconds(2))
                    $0.clock = clock
                }
            ) { n, _, _ in
                if n == 1 { try await release.sleep(for: .seconds(60)) }
                return Self.ok("attempt \(n)")
            }
            let call = Task { try await client.send(Self.item) }
            await sent.wait(for: 1)
            await clock.advance(by: .seconds(3))
            #expect(try await call.value.name == "attempt 2")
            #expect(sent.count == 2)
        }

        // MARK: Coalescing never shares across origins or credentials

        /// A transport that holds every request until `gate` opens, then answers who it was for.
        static func held(_ gate: Gate) -> @Sendable (Int, HTTPRequest, URL) async throws -> (HTTPResponse, HTTPBody?) {
            { _, request, url in
                await gate.wait()
                return Self.ok("\(url.host ?? "") \(request.headerFields[.authorization] ?? "anonymous")")
            }
        }

        static func waitUntil(_ coalescing: RequestCoalescing, exchanges: Int, waiting: Int) async {
            while coalescing.load != (exchanges, waiting), !Task.isCancelled { await Task.yield() }
        }

        /// One instance, two clients on two origins: each origin gets its own request and answer.
        @Test func twoOriginsNeverShareAnAnswer() async throws {
            let coalescing = RequestCoalescing()
            let gate = Gate()
            let sent = SentRequests()
            let pipeline = quietPipeline { $0.coalescing = coalescing }
            let a = Self.client(Self.hostA, sent: sent, pipeline: pipeline, answer: Self.held(gate))
            let b = Self.client(Self.hostB, sent: sent, pipeline: pipeline, answer: Self.held(gate))
            let callsA = (0..<5).map { _ in Task { try await a.send(Self.item).name } }
            let callsB = (0..<5).map { _ in Task { try await b.send(Self.item).name } }
            await Self.waitUntil(coalescing, exchanges: 2, waiting: 8)
            gate.open()
            for call in callsA { #expect(try await call.value == "a.example anonymous") }
            for call in callsB { #expect(try await call.value == "b.example anonymous") }
            #expect(sent.count == 2)
        }

        /// Two sessions through one instance, and one session across a sign-out and sign-in while
        /// a flight is in the air: each credential gets its own request and answer.
        @Test func twoCredentialsNeverShareAnAnswer() async throws {
            let coalescing = RequestCoalescing()
            let gate = Gate()
            let sent = SentRequests()
            let one = AuthSession(authenticator: BearerAuthenticator(), credential: "one")
            let two = AuthSession(authenticator: BearerAuthenticator(), credential: "two")
            func pipeline(_ session: AuthSession<BearerAuthenticator>) -> ClientPipeline {
                quietPipeline {
                    $0.coalescing = coalescing
                    $0.authentication = .session(session)
                }
            }
            let userOne = Self.client(sent: sent, pipeline: pipeline(one), answer: Self.held(gate))
            let userTwo = Self.client(sent: sent, pipeline: pipeline(two), answer: Self.held(gate))
            let first = (0..<3).map { _ in Task { try await userOne.send(Self.item).name } }
            let second = (0..<3).map { _ in Task { try await userTwo.send(Self.item).name } }
            await Self.waitUntil(coalescing, exchanges: 2, waiting: 4)
            await sent.wait(for: 2)
            // The first user signs out and another signs in on the same session, mid-flight.
            one.signOut()
            one.signIn("three")
            let third = Task { try await userOne.send(Self.item).name }
            await sent.wait(for: 3)
            #expect(coalescing.load == (3, 4))
            gate.open()
            for call in first { #expect(try await call.value == "a.example Bearer one") }
            for call in second { #expect(try await call.value == "a.example Bearer two") }
            #expect(try await third.value == "a.example Bearer three")
            #expect(sent.count == 3)
        }
    }
}
