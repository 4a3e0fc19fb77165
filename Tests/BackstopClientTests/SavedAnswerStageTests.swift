import Backstop
import BackstopTestSupport
import BackstopTesting
import BackstopTracing
import Clocks
import Foundation
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import OpenAPIRuntime
import Synchronization
import Testing
import Tracing

/// A wall clock a test moves by hand, for when answers were saved and how old they are.
final class WallClock: Sendable {
    private let date = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { date.withLock { $0 } }

    func advance(bySeconds seconds: TimeInterval) { date.withLock { $0 += seconds } }
}

/// A bearer token `user:secret`, whose user names the saved answers.
struct NamedUserAuthenticator: Authenticator {
    func apply(_ credential: String, to request: inout HTTPRequest) {
        request.headerFields[.authorization] = "Bearer \(credential)"
    }
    func refresh(_ credential: String) async throws -> String { credential + "'" }
    func secrets(of credential: String) -> [String] { [credential] }
    func savedAnswerUser(of credential: String) -> String? { credential.split(separator: ":").first.map(String.init) }
}

extension BackstopClient {
    /// The saved-answer stage's rules in memory, on the public `StubTransport`, test clocks and
    /// a wall clock moved by hand: what is saved, what a saved answer stands in for, and what not.
    @Suite("Saved answers in memory", .timeLimit(.minutes(1)))
    struct SavedAnswerStageTests {
        typealias Stage = InMemoryStageTests
        static let item = Stage.item

        /// A store and a pipeline saving into it on `wall`'s time, answers up to an hour old.
        static func pipeline(
            _ store: InMemorySavedAnswerStore, wall: WallClock, _ configure: (inout ClientPipeline) -> Void = { _ in }
        ) -> ClientPipeline {
            quietPipeline {
                $0.savedAnswers = SavedAnswers(store: store, maximumAge: .seconds(3600))
                $0.now = { wall.now }
                configure(&$0)
            }
        }

        static func store(_ wall: WallClock, limits: SavedAnswerLimits = SavedAnswerLimits()) -> InMemorySavedAnswerStore {
            InMemorySavedAnswerStore(limits: limits, now: { wall.now })
        }

        /// The `APIError` a saved answer stood in for.
        static func standsFor(_ response: APIResponse<Item>) throws -> StudyGroupError {
            let use = try #require(response.savedAnswer)
            return try #require(use.failure as? StudyGroupError)
        }

        @Test func a503IsAnsweredWithTheSavedPayloadWhichSaysWhenItWasSavedAndWhatItStandsFor() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = Stage.transport(Stage.ok("saved"), Stage.status(503))
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall))
            let savedAt = wall.now
            let first = try await client.response(for: Self.item)
            #expect(first.savedAnswer == nil)
            #expect(store.load.answers == 1)
            wall.advance(bySeconds: 125)
            let second = try await client.response(for: Self.item)
            #expect(second.payload == Item(id: 1, name: "saved"))
            #expect(second.status == .ok)
            #expect(second.savedAnswer?.savedAt == savedAt)
            #expect(second.savedAnswer?.age == .seconds(125))
            guard case .http(let failure) = try Self.standsFor(second) else {
                Issue.record("expected the 503")
                return
            }
            #expect(failure.status.code == 503)
            #expect(transport.requests.count == 2)
            // `send` answers the payload alone.
            #expect(try await client.send(Self.item).name == "saved")
        }

        @Test(arguments: [400, 401, 403, 404, 409, 422, 429])
        func a4xxIsNeverAnsweredFromTheStore(code: Int) async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = Stage.transport(Stage.ok("saved"), Stage.status(code))
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall))
            _ = try await client.send(Self.item)
            guard case .http(let failure)? = await failure(of: client, Self.item) else {
                Issue.record("a \(code) was answered from the store")
                return
            }
            #expect(failure.status.code == code)
            #expect(store.load.answers == 1)
        }

        @Test func statusesRetryingCannotFixAreNotAnsweredEither() async throws {
            let wall = WallClock()
            let transport = Stage.transport(Stage.ok("saved"), Stage.status(501))
            let client = Stage.client(transport, pipeline: Self.pipeline(Self.store(wall), wall: wall))
            _ = try await client.send(Self.item)
            guard case .http(let failure)? = await failure(of: client, Self.item) else {
                Issue.record("a 501 was answered from the store")
                return
            }
            #expect(failure.status.code == 501)
        }

        @Test func anOpenCircuitIsAnsweredAtOnceWithoutTouchingTheNetwork() async throws {
            let wall = WallClock()
            let breaker = Stage.breaker(clock: TestClock())
            let transport = Stage.transport(Stage.ok("saved"), Stage.status(503, retryAfter: "10"))
            let client = Stage.client(transport, pipeline: Self.pipeline(Self.store(wall), wall: wall) { $0.circuitBreaker = breaker })
            _ = try await client.send(Self.item)
            // The 503 with Retry-After opens the circuit, and is answered from the store itself.
            #expect(try await client.send(Self.item).name == "saved")
            #expect(breaker.state(of: "a.example") == .open)
            let refused = try await client.response(for: Self.item)
            #expect(refused.payload.name == "saved")
            #expect(refused.attempts == 0)
            guard case .client(let failure) = try Self.standsFor(refused) else {
                Issue.record("expected circuitOpen")
                return
            }
            #expect(failure.reason == .circuitOpen)
            #expect(transport.requests.count == 2)
        }

        @Test func aFullConcurrencyQueueIsAnsweredFromTheStore() async throws {
            let wall = WallClock()
            let clock = TestClock()
            let transport = Stage.transport(Stage.ok("saved"), Stage.ok("slow").delayed(by: .seconds(10)), clock: clock)
            let client = Stage.client(
                transport,
                pipeline: Self.pipeline(Self.store(wall), wall: wall) {
                    $0.concurrencyLimit = ConcurrencyLimit(maximumConcurrentCalls: 1, maximumQueuedCalls: 0)
                })
            _ = try await client.send(Self.item)
            let slow = Task { try await client.send(Self.item) }
            _ = try await transport.requests(atLeast: 2)
            let refused = try await client.response(for: Self.item)
            #expect(refused.payload.name == "saved")
            guard case .client(let failure) = try Self.standsFor(refused) else {
                Issue.record("expected tooManyCalls")
                return
            }
            #expect(failure.reason == .tooManyCalls)
            await clock.advance(by: .seconds(10))
            #expect(try await slow.value.name == "slow")
            #expect(transport.requests.count == 2)
        }

        @Test func aCallOutOfTimeIsAnsweredFromTheStore() async throws {
            let wall = WallClock()
            let clock = TestClock()
            let transport = Stage.transport(Stage.ok("saved"), Stage.ok("late").delayed(by: .seconds(10)), clock: clock)
            let client = Stage.client(
                transport,
                pipeline: Self.pipeline(Self.store(wall), wall: wall) {
                    $0.timeout = .seconds(5)
                    $0.timeoutClock = clock
                })
            _ = try await client.send(Self.item)
            let late = Task { try await client.response(for: Self.item) }
            _ = try await transport.requests(atLeast: 2)
            await clock.advance(by: .seconds(5))
            let response = try await late.value
            #expect(response.payload.name == "saved")
            #expect(transportReason(of: try Self.standsFor(response)) == .timedOut)
        }

        @Test func noNetworkIsAnsweredFromTheStore() async throws {
            let wall = WallClock()
            let transport = Stage.transport(Stage.ok("saved"), .failure(URLError(.notConnectedToInternet)))
            let client = Stage.client(transport, pipeline: Self.pipeline(Self.store(wall), wall: wall))
            _ = try await client.send(Self.item)
            let response = try await client.response(for: Self.item)
            #expect(response.payload.name == "saved")
            #expect(transportReason(of: try Self.standsFor(response)) == .offline)
        }

        @Test func aMaintenanceCodeInA200EnvelopeIsAnsweredAndStillPublished() async throws {
            let wall = WallClock()
            let transport = Stage.transport(
                .json(#"{"code":200,"msg":"ok","data":{"id":1,"name":"saved"}}"#),
                .json(#"{"code":10503,"msg":"down for maintenance"}"#))
            let events = GeneralCodeEvents(roles: [.maintenance])
            let stream = events.events
            let client = APIClient<GeneralCode>(
                baseURL: Stage.hostA, contract: EnvelopeContract.b, decoder: ResilientJSONDecoder(),
                pipeline: Self.pipeline(Self.store(wall), wall: wall) { $0.generalCodes = events }, transport: transport)
            _ = try await client.send(Self.item)
            let response = try await client.response(for: Self.item)
            #expect(response.payload.name == "saved")
            guard case .server(.general(.maintenance, _)) = try Self.standsFor(response) else {
                Issue.record("expected the maintenance code")
                return
            }
            var iterator = stream.makeAsyncIterator()
            #expect(await iterator.next() == .maintenance)
        }

        @Test func aCancelledCallIsNotAnswered() async throws {
            let wall = WallClock()
            let clock = TestClock()
            let transport = Stage.transport(Stage.ok("saved"), Stage.ok("late").delayed(by: .seconds(10)), clock: clock)
            let client = Stage.client(transport, pipeline: Self.pipeline(Self.store(wall), wall: wall))
            _ = try await client.send(Self.item)
            let cancelled = Task { await failure(of: client, Self.item) }
            _ = try await transport.requests(atLeast: 2)
            cancelled.cancel()
            #expect(transportReason(of: await cancelled.value) == .cancelled)
        }

        @Test func aPostIsNeitherSavedNorAnswered() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = StubTransport()
            transport.stub(.post, "groups/search", Stage.ok("found"), Stage.status(503))
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall))
            let search = Endpoint<Item, StudyGroupCode>(.post, "groups/search")
            _ = try await client.send(search)
            #expect(store.load.answers == 0)
            guard case .http? = await failure(of: client, search) else {
                Issue.record("a POST was answered from the store")
                return
            }
        }

        @Test func aPostThatOptsInIsSavedAndAnsweredOnlyWhenIdempotent() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = StubTransport()
            transport.stub(.post, "groups/search", Stage.ok("found"), Stage.status(503))
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall))
            let saved = Endpoint<Item, StudyGroupCode>(.post, "groups/search", savedAnswers: .saved())
            _ = try await client.send(saved)
            #expect(store.load.answers == 1)
            // Saved, but a method that is not idempotent is never answered from the store…
            guard case .http? = await failure(of: client, saved) else {
                Issue.record("a non-idempotent POST was answered from the store")
                return
            }
            // … unless the endpoint says it is.
            let idempotent = Endpoint<Item, StudyGroupCode>(.post, "groups/search", isIdempotent: true, savedAnswers: .saved())
            #expect(try await client.send(idempotent).name == "found")
        }

        @Test func anEndpointMarkedNeverIsNotSaved() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = Stage.transport(Stage.ok("saved"), Stage.status(503))
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall))
            let never = Endpoint<Item, StudyGroupCode>(.get, "products/1", savedAnswers: .never)
            _ = try await client.send(never)
            #expect(store.load.answers == 0)
            guard case .http? = await failure(of: client, never) else {
                Issue.record("a never-saved endpoint was answered from the store")
                return
            }
        }

        @Test func noStoreIsNeverSaved() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            var fields = HTTPFields()
            fields[.cacheControl] = "private, No-Store"
            let transport = Stage.transport(
                StubResponse(status: .ok, headerFields: fields, body: Data(#"{"id":1,"name":"secret"}"#.utf8)), Stage.status(503))
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall))
            _ = try await client.send(Self.item)
            #expect(store.load.answers == 0)
            #expect(await failure(of: client, Self.item) != nil)
        }

        @Test func aBodyOverThePerAnswerLimitIsNeverSaved() async throws {
            let wall = WallClock()
            let store = Self.store(wall, limits: SavedAnswerLimits(maximumEntryBytes: 64))
            let long = String(repeating: "x", count: 100)
            let transport = Stage.transport(Stage.ok(long), Stage.status(503))
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall))
            _ = try await client.send(Self.item)
            #expect(store.load.answers == 0)
            #expect(await failure(of: client, Self.item) != nil)
        }

        @Test func anAnswerOlderThanTheMaximumAgeStandsInForNothing() async throws {
            let wall = WallClock()
            let transport = Stage.transport(Stage.ok("saved"), Stage.status(503))
            let client = Stage.client(transport, pipeline: Self.pipeline(Self.store(wall), wall: wall))
            _ = try await client.send(Self.item)
            wall.advance(bySeconds: 3600)
            #expect(try await client.send(Self.item).name == "saved")
            wall.advance(bySeconds: 1)
            #expect(await failure(of: client, Self.item) != nil)
        }

        @Test func anEndpointsMaximumAgeReplacesThePipelines() async throws {
            let wall = WallClock()
            let transport = Stage.transport(Stage.ok("saved"), Stage.status(503))
            let client = Stage.client(transport, pipeline: Self.pipeline(Self.store(wall), wall: wall))
            let brief = Endpoint<Item, StudyGroupCode>(.get, "products/1", savedAnswers: .saved(maximumAge: .seconds(60)))
            _ = try await client.send(brief)
            wall.advance(bySeconds: 61)
            #expect(await failure(of: client, brief) != nil)
            #expect(try await client.send(Self.item).name == "saved")
        }

        @Test func aSavedETagIsSentAsIfNoneMatchAndA304AnswersTheSavedPayloadAsFresh() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = StubTransport()
            transport.stub(.get, "products/1") { request in
                if request.headerFields[.ifNoneMatch] == #""v1""# { return StubResponse(status: .notModified) }
                var fields = HTTPFields()
                fields[.eTag] = #""v1""#
                return StubResponse(status: .ok, headerFields: fields, body: Data(#"{"id":1,"name":"tagged"}"#.utf8))
            }
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall))
            _ = try await client.send(Self.item)
            #expect(transport.requests[0].headerFields[.ifNoneMatch] == nil)
            wall.advance(bySeconds: 600)
            let revalidated = try await client.response(for: Self.item)
            #expect(transport.requests[1].headerFields[.ifNoneMatch] == #""v1""#)
            #expect(revalidated.payload.name == "tagged")
            #expect(revalidated.status == .ok)
            #expect(revalidated.savedAnswer == nil)
            // Renewed: saved again now.
            let key = SavedAnswerKey(method: "GET", url: "https://a.example/v1/products/1", representation: ["accept: application/json"])
            #expect(await store.answer(for: key)?.savedAt == wall.now)
        }

        @Test func aSavedLastModifiedIsSentAsIfModifiedSince() async throws {
            let wall = WallClock()
            let date = "Wed, 21 Oct 2026 07:28:00 GMT"
            let transport = StubTransport()
            transport.stub(.get, "products/1") { request in
                if request.headerFields[.ifModifiedSince] == date { return StubResponse(status: .notModified) }
                var fields = HTTPFields()
                fields[.lastModified] = date
                return StubResponse(status: .ok, headerFields: fields, body: Data(#"{"id":1,"name":"dated"}"#.utf8))
            }
            let client = Stage.client(transport, pipeline: Self.pipeline(Self.store(wall), wall: wall))
            _ = try await client.send(Self.item)
            #expect(try await client.send(Self.item).name == "dated")
            #expect(transport.requests.map { $0.headerFields[.ifModifiedSince] } == [nil, date])
        }

        @Test func aRequestTheAppMadeConditionalGetsItsOwn304() async throws {
            let wall = WallClock()
            var fields = HTTPFields()
            fields[.eTag] = #""v1""#
            let transport = Stage.transport(
                StubResponse(status: .ok, headerFields: fields, body: Data(#"{"id":1,"name":"tagged"}"#.utf8)),
                StubResponse(status: .notModified))
            let client = Stage.client(transport, pipeline: Self.pipeline(Self.store(wall), wall: wall))
            _ = try await client.send(Self.item)
            var own = HTTPFields()
            own[.ifNoneMatch] = #""v0""#
            let conditional = Endpoint<Item, StudyGroupCode>(.get, "products/1", headerFields: own)
            #expect(await failure(of: client, conditional) != nil)
            #expect(transport.requests.last?.headerFields[.ifNoneMatch] == #""v0""#)
        }

        @Test func twoUsersNeverSeeEachOthersAnswers() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = Stage.transport(Stage.ok("alice's"), Stage.status(503))
            let alice = AuthSession(authenticator: NamedUserAuthenticator(), credential: "alice:t1")
            let bob = AuthSession(authenticator: NamedUserAuthenticator(), credential: "bob:t2")
            let aliceClient = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall) { $0.authentication = .session(alice) })
            let bobClient = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall) { $0.authentication = .session(bob) })
            _ = try await aliceClient.send(Self.item)
            guard case .http? = await failure(of: bobClient, Self.item) else {
                Issue.record("bob was answered alice's saved answer")
                return
            }
            #expect(try await aliceClient.send(Self.item).name == "alice's")
        }

        @Test func aSignOutRemovesTheUsersAnswers() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = Stage.transport(Stage.ok("mine"), Stage.status(503))
            let session = AuthSession(authenticator: NamedUserAuthenticator(), credential: "alice:t1")
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall) { $0.authentication = .session(session) })
            _ = try await client.send(Self.item)
            #expect(store.load.answers == 1)
            session.signOut()
            #expect(store.load.answers == 0)
            session.signIn("alice:t3")
            #expect(await failure(of: client, Self.item) != nil)
        }

        @Test func anAnswerThatArrivesAfterItsUserSignedOutIsNotSaved() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let session = AuthSession(authenticator: NamedUserAuthenticator(), credential: "alice:t1")
            let transport = StubTransport()
            transport.stub(.get, "products/1") { _ in
                // The user signs out while the request is on its way.
                session.signOut()
                return Stage.ok("alice's")
            }
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall) { $0.authentication = .session(session) })
            #expect(try await client.send(Self.item).name == "alice's")
            #expect(store.load.answers == 0)
        }

        @Test func anotherUserSigningInRemovesTheLastUsersAnswersAndTheSameUserKeepsThem() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = Stage.transport(Stage.ok("alice's"), Stage.status(503))
            let session = AuthSession(authenticator: NamedUserAuthenticator(), credential: "alice:t1")
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall) { $0.authentication = .session(session) })
            _ = try await client.send(Self.item)
            // The same user with a new token keeps them: a launch with saved tokens finds them.
            session.signIn("alice:t2")
            #expect(try await client.send(Self.item).name == "alice's")
            session.signIn("bob:t3")
            #expect(store.load.answers == 0)
            #expect(await failure(of: client, Self.item) != nil)
        }

        @Test func withoutAUserNameEachSignInIsAUserOfItsOwn() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = Stage.transport(Stage.ok("first"), Stage.status(503))
            let session = AuthSession(authenticator: BearerAuthenticator(), credential: "t1")
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall) { $0.authentication = .session(session) })
            _ = try await client.send(Self.item)
            #expect(try await client.send(Self.item).name == "first")
            session.signIn("t2")
            #expect(store.load.answers == 0)
            #expect(await failure(of: client, Self.item) != nil)
        }

        @Test func aRefreshKeepsTheUserAndTheirSavedAnswer() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = StubTransport()
            transport.stub(.get, "products/1") { [transport] request in
                switch request.headerFields[.authorization] {
                case "Bearer alice:t1": transport.requests.count == 1 ? Stage.ok("alice's") : Stage.status(401)
                default: Stage.status(503)
                }
            }
            let session = AuthSession(authenticator: NamedUserAuthenticator(), credential: "alice:t1")
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall) { $0.authentication = .session(session) })
            _ = try await client.send(Self.item)
            let response = try await client.response(for: Self.item)
            #expect(response.payload.name == "alice's")
            #expect(response.savedAnswer != nil)
            #expect(session.credential == "alice:t1'")
            #expect(
                transport.requests.map { $0.headerFields[.authorization] } == ["Bearer alice:t1", "Bearer alice:t1", "Bearer alice:t1'"])
        }

        @Test func aSignedOutSessionIsNeverAnswered() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = Stage.transport(Stage.ok("public"), Stage.status(503))
            let session = AuthSession(authenticator: NamedUserAuthenticator(), credential: nil)
            let client = Stage.client(transport, pipeline: Self.pipeline(store, wall: wall) { $0.authentication = .session(session) })
            guard case .client(let failure)? = await failure(of: client, Self.item) else {
                Issue.record("a signed-out call was sent or answered")
                return
            }
            #expect(failure.reason == .signedOut)
            #expect(store.load.answers == 0)
        }

        @Test func theKeyHoldsNoSecret() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let transport = StubTransport()
            transport.stub(.get, "products/1?access_token=hunter22&page=2", Stage.ok("saved"))
            let session = AuthSession(authenticator: NamedUserAuthenticator(), credential: "alice:bearer-secret")
            var fields = HTTPFields()
            fields[.acceptLanguage] = "ko"
            fields[.cookie] = "sid=cookie-secret"
            let client = Stage.client(
                transport,
                pipeline: Self.pipeline(store, wall: wall) {
                    $0.authentication = .session(session)
                    $0.savedAnswers?.representationFields = [.cookie, .authorization]
                })
            let endpoint = Endpoint<Item, StudyGroupCode>(
                .get, "products/1",
                query: [URLQueryItem(name: "access_token", value: "hunter22"), URLQueryItem(name: "page", value: "2")],
                headerFields: fields)
            _ = try await client.send(endpoint)
            let key = SavedAnswerKey(
                method: "GET", url: "https://a.example/v1/products/1?access_token=%3Credacted%3E&page=2",
                representation: ["accept-language: ko", "accept: application/json"], user: "alice")
            let saved = try #require(await store.answer(for: key))
            let text = String(decoding: try JSONEncoder().encode(saved), as: UTF8.self)
            for secret in ["hunter22", "bearer-secret", "cookie-secret"] { #expect(!text.contains(secret), "\(secret)") }
        }

        @Test func coalescedCallsShareTheSavedAnswer() async throws {
            let wall = WallClock()
            let clock = TestClock()
            let coalescing = RequestCoalescing()
            let transport = Stage.transport(Stage.ok("saved"), Stage.status(503).delayed(by: .seconds(1)), clock: clock)
            let client = Stage.client(transport, pipeline: Self.pipeline(Self.store(wall), wall: wall) { $0.coalescing = coalescing })
            _ = try await client.send(Self.item)
            let calls = (0..<3).map { _ in Task { try await client.response(for: Self.item) } }
            _ = try await transport.requests(atLeast: 2)
            while coalescing.load.waitingCalls < 2 { await Task.yield() }
            await clock.advance(by: .seconds(1))
            for call in calls {
                let response = try await call.value
                #expect(response.payload.name == "saved")
                guard case .http(let failure) = try Self.standsFor(response) else {
                    Issue.record("expected the 503")
                    continue
                }
                #expect(failure.status.code == 503)
            }
            #expect(transport.requests.count == 2)
        }

        @Test func theLogLineMetricsSayASavedAnswerWasServedAndItsAge() async throws {
            let wall = WallClock()
            let logs = InMemoryLogHandler.keepingDebug()
            let metrics = TestMetrics()
            var fields = HTTPFields()
            fields[.eTag] = #""v1""#
            let transport = Stage.transport(
                StubResponse(status: .ok, headerFields: fields, body: Data(#"{"id":1,"name":"saved"}"#.utf8)),
                StubResponse(status: .notModified), Stage.status(503))
            let store = Self.store(wall, limits: SavedAnswerLimits(maximumEntries: 1))
            let client = Stage.client(
                transport,
                pipeline: Self.pipeline(store, wall: wall) {
                    $0.logging = RequestLogging(logger: Logger(label: "saved") { _ in logs })
                    $0.metrics = RequestMetrics(factory: metrics)
                })
            _ = try await client.send(Self.item)
            _ = try await client.send(Self.item)
            wall.advance(bySeconds: 90)
            _ = try await client.send(Self.item)
            let line = try #require(logs.entries.last)
            #expect(line.message.description.hasSuffix(", saved answer 90 s old for http.503"))
            #expect(line.metadata["saved_answer_age_s"] == "90")
            #expect(line.metadata["saved_answer_for"] == "http.503")
            for outcome in ["saved", "revalidated", "answered"] {
                #expect(
                    try metrics.expectCounter("backstop_saved_answers_total", [("operation", "GET products/{id}"), ("outcome", outcome)])
                        .totalValue == 1, "\(outcome)")
            }
            // A second answer pushes the first out of a store that keeps one.
            let other = Endpoint<Item, StudyGroupCode>(.get, "products/2")
            transport.stub(.get, "products/2", Stage.ok("other"))
            _ = try await client.send(other)
            #expect(
                try metrics.expectCounter("backstop_saved_answers_total", [("operation", "GET products/{id}"), ("outcome", "evicted")])
                    .totalValue == 1)
        }

        @Test func theSpanSaysASavedAnswerWasServedAndItsAge() async throws {
            let wall = WallClock()
            let tracer = InMemoryTracer()
            let transport = Stage.transport(Stage.ok("saved"), Stage.status(503))
            let client = Stage.client(
                transport, pipeline: Self.pipeline(Self.store(wall), wall: wall) { $0.tracing = .distributedTracing(tracer) })
            _ = try await client.send(Self.item)
            wall.advance(bySeconds: 90)
            _ = try await client.send(Self.item)
            let span = try #require(tracer.finishedSpans.filter { $0.kind == .client }.last)
            #expect(span.attributes.get("backstop.saved_answer.age_s") == .double(90))
            #expect(span.attributes.get("backstop.saved_answer.stands_in_for") == .string("http.503"))
            #expect(span.events.map(\.name).contains("saved answer"))
        }

        @Test func savedThenFreshGivesTheSavedAnswerAtOnceThenTheBackends() async throws {
            let wall = WallClock()
            let transport = Stage.transport(Stage.ok("first"), Stage.ok("second"))
            let client = Stage.client(transport, pipeline: Self.pipeline(Self.store(wall), wall: wall))
            // Nothing saved yet: the backend's answer alone.
            var names: [String] = []
            for try await response in client.savedThenFresh(Self.item) { names.append(response.payload.name) }
            #expect(names == ["first"])
            wall.advance(bySeconds: 30)
            var responses: [APIResponse<Item>] = []
            for try await response in client.savedThenFresh(Self.item) { responses.append(response) }
            #expect(responses.map(\.payload.name) == ["first", "second"])
            #expect(responses.first?.savedAnswer?.age == .seconds(30))
            #expect(responses.first?.savedAnswer?.failure == nil)
            #expect(responses.last?.savedAnswer == nil)
            #expect(transport.requests.count == 2)
        }

        @Test func aGeneratedClientsCallIsAnsweredFromTheStoreRepairedAgain() async throws {
            let wall = WallClock()
            let store = Self.store(wall)
            let middleware = PipelineMiddleware(
                Self.pipeline(store, wall: wall), contract: EnvelopeContract.noEnvelope, generalCodes: GeneralCode.self,
                repairing: NameRepairer())
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/products/1")
            let baseURL = Stage.hostA
            let (_, first) = try await middleware.intercept(request, body: nil, baseURL: baseURL, operationID: "getProduct") { _, _, _ in
                var fields = HTTPFields()
                fields[.contentType] = "application/json"
                return (HTTPResponse(status: .ok, headerFields: fields), HTTPBody(#"{"id":1,"name":"raw"}"#))
            }
            #expect(try await String(collecting: try #require(first), upTo: 1000) == #"{"id":1,"name":"repaired"}"#)
            wall.advance(bySeconds: 42)
            let (response, body) = try await middleware.intercept(request, body: nil, baseURL: baseURL, operationID: "getProduct") {
                _, _, _ in (HTTPResponse(status: .serviceUnavailable), HTTPBody("down"))
            }
            #expect(response.status == .ok)
            #expect(response.headerFields[.age] == "42")
            #expect(response.headerFields[.contentType] == "application/json")
            #expect(try await String(collecting: try #require(body), upTo: 1000) == #"{"id":1,"name":"repaired"}"#)
            // Saved as received: the repairs are made again when it is answered.
            let key = SavedAnswerKey(method: "GET", url: "https://a.example/v1/products/1")
            #expect(await store.answer(for: key)?.body == Data(#"{"id":1,"name":"raw"}"#.utf8))
        }
    }
}

/// Repairs `raw` into `repaired`, as an OpenAPI contract repairs a body.
struct NameRepairer: ResponseRepairing {
    func repair(_ body: Data, operationID: String, status: Int, contentType: String?) throws(DecodingFailure) -> RepairedBody {
        let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: #""raw""#, with: #""repaired""#)
        return RepairedBody(body: Data(text.utf8))
    }
}
