import Backstop
import BackstopJSON
import BadBackend
import Clocks
import Foundation
import HTTPTypes
import InMemoryLogging
import Logging

/// The live part of the tour: an app's ``APIClient`` calls BadBackend over loopback HTTP, and
/// each step shows what the app receives, what its engineers' log gets and the alert a user
/// would see.
@available(macOS 14, iOS 17, tvOS 17, *)
struct BackendTour {
    /// The app's general codes: BadBackend's `GeneralCode`s, with the roles Backstop acts on.
    enum AppCode: Int, ServerCode {
        case tokenExpired = 11001
        case signInRequired = 10401
        case maintenance = 10503
        case rateLimited = 10429

        var role: ServerCodeRole? {
            switch self {
            case .tokenExpired: .tokenExpired
            case .signInRequired: .signInRequired
            case .maintenance: .maintenance
            case .rateLimited: .rateLimited
            }
        }
    }

    /// The study-group feature's own codes, as much of them as this app declares.
    enum StudyGroupCode: Int, ServerCode {
        case wrongTeamCode = 11210005
        case classNotFound = 11210006
    }

    struct Product: Decodable, Sendable, CustomStringConvertible {
        let id: Int
        let name: String
        let price: Double
        let inStock: Bool
        let stock: Int

        var description: String { "Product(id: \(id), name: \(name), price: \(price), inStock: \(inStock), stock: \(stock))" }
    }

    struct StudyGroup: Decodable, Sendable, CustomStringConvertible {
        let id: Int
        let name: String
        let teamCode: String
        let memberCount: Int

        var description: String { "StudyGroup(id: \(id), name: \(name), teamCode: \(teamCode), memberCount: \(memberCount))" }
    }

    struct Account: Decodable, Sendable, CustomStringConvertible {
        let id: Int
        let name: String

        var description: String { "Account(id: \(id), name: \(name))" }
    }

    /// What BadBackend's sign-in and refresh answer.
    struct Tokens: Decodable, Sendable {
        let accessToken: String
        let refreshToken: String
    }

    /// Backend B's bearer tokens, refreshed at `POST b/auth/refresh`; the app learns that a
    /// token expired only from the backend.
    struct TokenAuthenticator: Authenticator {
        /// A client without authentication.
        let refresher: APIClient<AppCode>

        func apply(_ credential: Tokens, to request: inout HTTPRequest) {
            request.headerFields[.authorization] = "Bearer \(credential.accessToken)"
        }

        func refresh(_ credential: Tokens) async throws -> Tokens {
            try await refresher.send(
                Endpoint<Tokens, NoModuleCodes>(
                    .post, "b/auth/refresh", body: ["refreshToken": credential.refreshToken], requiresAuthentication: false))
        }

        func secrets(of credential: Tokens) -> [String] { [credential.accessToken, credential.refreshToken] }
    }

    /// How many requests start at once when the token has expired.
    static let parallelRequests = 5

    /// Backoff and `Retry-After` waits kept to a blink, so the tour takes seconds; the
    /// narration says so. The defaults: backoff up to 0.5 s, doubling; `Retry-After` up to 60 s.
    static let retryPolicy = RetryPolicy(exponentialBackoffScale: .milliseconds(50), maximumRetryAfter: .milliseconds(100))

    /// The app's own wording for one of its codes.
    static let catalog = MessageCatalog.builtIn.merging(
        MessageCatalog([
            "en": ["server.11210005": "That team code doesn't exist."]
        ]))

    let terminal: Terminal
    let baseURL: URL
    /// The running server, whose request log shows what reached it.
    let backend: BadBackend
    /// Every call's repairs, by operation and field.
    let drift = ContractDriftRecorder()
    /// The server's clock, moved by hand so a token expires without waiting.
    let backendClock: TestClock<Duration>
    /// The pipeline's clocks: waits out the retry backoff and measures the timeouts; tests pass
    /// one that returns at once.
    let retryClock: any Clock<Duration>
    /// At `debug`, the level of the pipeline's lines: the tour reads them as an engineer who
    /// turned them on would.
    let clientLog = {
        var handler = InMemoryLogHandler()
        handler.logLevel = .debug
        return handler
    }()
    private let repairLog = InMemoryLogHandler()

    init(terminal: Terminal, baseURL: URL, backend: BadBackend, backendClock: TestClock<Duration>, retryClock: any Clock<Duration>) {
        self.terminal = terminal
        self.baseURL = baseURL
        self.backend = backend
        self.backendClock = backendClock
        self.retryClock = retryClock
    }

    /// The steps that need the server running.
    func showServedSteps() async {
        await step(
            "Envelope A succeeds",
            #"{"statusCode":200,"message":"success","result":{"data":…}}: the contract finds the payload at result.data."#,
            .a, Endpoint<Product, NoModuleCodes>(.get, "a/products/1"), read: .unwrapping,
            code: [
                #"let contract = EnvelopeContract(code: "statusCode", message: ["message"], payload: "result.data", success: .codes([200]))"#
            ])
        await step(
            "Envelope B succeeds", #"{"code":200,"msg":"OK","data":…}"#,
            .b, Endpoint<StudyGroup, StudyGroupCode>(.get, "b/study-groups/7"), read: .unwrapping,
            code: [#"let contract = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))"#])
        await step(
            "Envelope C succeeds", #"{"statusCode":200,"result":{"data":…}}, here a list"#,
            .c, Endpoint<[Product], NoModuleCodes>(.get, "c/products"), read: .unwrapping,
            code: [
                #"let contract = EnvelopeContract(code: "statusCode", message: ["message", "result.message"], "#
                    + #"payload: "result.data", success: .codes([200]))"#
            ],
            show: { "[Product] × \($0.count): " + $0.map(\.name).joined(separator: ", ") })
        await step(
            "Envelope A fails with a module code: the study group's \"wrong team code\"",
            "The feature declares its own codes; its switch matches .wrongTeamCode, and the app's catalog words the message.",
            .a, Endpoint<StudyGroup, StudyGroupCode>(.get, "scenarios/wrong-team-code/a/study-groups/7"), read: .unwrapping,
            code: [
                "enum StudyGroupCode: Int, ServerCode { case wrongTeamCode = 11210005, classNotFound = 11210006 }",
                #"let catalog = MessageCatalog.builtIn.merging(MessageCatalog(["en": ["server.11210005": "That team code doesn't exist."]]))"#,
            ])
        let general = GeneralCodeEvents(roles: [.maintenance])
        await step(
            "Envelope B fails with a general code: maintenance",
            "The same study-group call. General codes are matched before module codes, and the app-wide codes stage "
                + "(GeneralCodeEvents) hears maintenance once, before the caller gets its error: one banner for every feature.",
            .b, Endpoint<StudyGroup, StudyGroupCode>(.get, "scenarios/maintenance/b/study-groups/7"), read: .unwrapping,
            code: [
                "enum AppCode: Int, ServerCode { case maintenance = 10503 … var role: ServerCodeRole? { … .maintenance … } }",
                "pipeline.generalCodes = GeneralCodeEvents(roles: [.maintenance])",
            ],
            generalCodes: general)
        await step(
            "Envelope C fails, breaks its shape, and sends a code nobody declared",
            #"{"statusCode":77777,"result":{"message":"…"}}: the contract looks for the message at message, then result.message, and keeps the unknown code."#,
            .c, Endpoint<StudyGroup, StudyGroupCode>(.get, "scenarios/unknown-code/c/study-groups/7"), read: .unwrapping)
        await step(
            "A dirty payload: numbers and a flag sent as strings",
            "Lenient decoding repairs what loses nothing and reports each repair to engineers: the path, what was found, what was done.",
            .b, Endpoint<Product, NoModuleCodes>(.get, "scenarios/numbers-as-strings/b/products/1"), read: .backstopJSON,
            code: [#"APIClient(baseURL: url, contract: backendB, decoder: ResilientJSONDecoder(reporter: LoggingRepairReporter()))"#])
        await tokenRefreshStep()
        await step(
            "HTTP 503 twice, then the answer",
            "The pipeline's retry stage sends a GET again after a 503, up to 2 retries. This demo's policy backs off 50 ms at most; the default, up to 0.5 s, doubling.",
            .b,
            Endpoint<Product, NoModuleCodes>(
                .get, "scenarios/http-503/b/products/1",
                query: [URLQueryItem(name: "failures", value: "2")]),
            read: .callingYourBackend, code: [Self.retryPolicyCode])
        await step(
            "HTTP 429 with Retry-After: 30, every time",
            "The client waits what Retry-After asks, up to the policy's maximumRetryAfter: 60 s by default, 100 ms in this demo. After 3 attempts the app gets the 429, and the alert says when to try again.",
            .b,
            Endpoint<Product, NoModuleCodes>(
                .get, "scenarios/http-429/b/products/1",
                query: [URLQueryItem(name: "retryAfter", value: "30")]),
            read: .recoveringFromErrors, code: [Self.retryPolicyCode])
        await step(
            "A slow answer and a 1 s timeout",
            "BadBackend holds this answer for \(backend.configuration.slowAnswerDelay.components.seconds) s. The endpoint's timeout "
                + "bounds the whole call, retries and backoff included: the app gets timedOut after 1 s, and the alert offers to try again.",
            .b, Endpoint<Product, NoModuleCodes>(.get, "scenarios/slow/b/products/1", timeout: .seconds(1)),
            read: .callingYourBackend)
        await step(
            "Each attempt gets 300 ms, and one that outlives it is retried",
            "The same slow answer, without a total timeout: the attempt timeout ends each attempt after 300 ms, and the retry "
                + "stage sends it again, up to 2 retries. Every answer is held here, so the app gets timedOut after 3 attempts.",
            .b, Endpoint<StudyGroup, StudyGroupCode>(.get, "scenarios/slow/b/study-groups/7"), read: .callingYourBackend,
            code: ["pipeline.attemptTimeout = .milliseconds(300)"], attemptTimeout: .milliseconds(300))
        await coalescingStep()
        await hedgingStep()
        await concurrencyLimitStep()
        await outageStep()
        await savedAnswerStep()
        await generatedClientStep()
        await ownAPIStep()
    }

    /// The demo's retry policy, as the code lines show it.
    static let retryPolicyCode =
        "pipeline.retry = RetryPolicy(exponentialBackoffScale: .milliseconds(50), maximumRetryAfter: .milliseconds(100))"

    /// Identical GETs at once, over a slow answer: one request, each caller its own payload.
    private func coalescingStep() async {
        let copies = 5
        let endpoint = Endpoint<Product, NoModuleCodes>(.get, "scenarios/slow/b/products/3")
        begin(
            "\(copies) screens ask for the same product at once: one request",
            "BadBackend answers this path slowly, so the calls overlap. The coalescing stage lets identical GETs in flight "
                + "share one exchange; each caller decodes its own payload. Nothing is cached: a later call sends its own request.",
            code: ["pipeline.coalescing = RequestCoalescing()", Self.sendLine(endpoint) + "  // × \(copies), at once"])
        let coalescing = RequestCoalescing()
        let client = client(.b, coalescing: coalescing)
        let isTheCall = Self.requests(to: endpoint)
        let before = await backend.requestLog.entries.count(where: isTheCall)
        let results = await withTaskGroup(of: Result<Product, APIError<AppCode, NoModuleCodes>>.self) { group in
            for _ in 0..<copies {
                group.addTask { await Self.result { () async throws(APIError<AppCode, NoModuleCodes>) in try await client.send(endpoint) } }
            }
            // The server answers once every copy waits on the one request.
            _ = try? await backend.requestLog.arrival(where: isTheCall)
            await Self.yield(until: { coalescing.load.waitingCalls >= copies - 1 })
            await backendClock.advance(by: backend.configuration.slowAnswerDelay + .seconds(1))
            return await group.reduce(into: []) { $0.append($1) }
        }
        block("app", Self.runs(results.map { show($0) }.sorted()))
        block("log", logLines())
        let requests = await backend.requestLog.entries.count(where: isTheCall) - before
        block("server", ["\(requests) request\(requests == 1 ? "" : "s") for \(copies) calls"])
        block("read", [TourArticle.survivingAnOutage.reference])
    }

    /// A slow first answer: a hedge goes out beside it, and the first answer wins.
    private func hedgingStep() async {
        let endpoint = Endpoint<Product, NoModuleCodes>(
            .get, "scenarios/slow/b/products/2", query: [URLQueryItem(name: "failures", value: "1")])
        begin(
            "A slow first answer: hedging sends the request again and takes the first answer",
            "BadBackend holds the path's first request (slow, failures=1). After 200 ms without an answer, the hedging stage "
                + "sends the same GET beside it; the first answer wins and the other request is cancelled. Only idempotent requests are hedged.",
            code: ["pipeline.hedging = Hedging(delay: .milliseconds(200))", Self.sendLine(endpoint)])
        let client = client(.b, hedging: Hedging(delay: .milliseconds(200)))
        let isTheCall = Self.requests(to: endpoint)
        block("app", [show(await Self.result { () async throws(APIError<AppCode, NoModuleCodes>) in try await client.send(endpoint) })])
        block("log", logLines())
        let requests = (try? await backend.requestLog.entries(where: isTheCall, atLeast: 2, within: .seconds(5)).count) ?? 0
        block("server", ["\(requests) requests for 1 call: one held, one answered"])
        block("read", [TourArticle.survivingAnOutage.reference])
    }

    /// More calls at once than the server has room for: the limit queues them, and none is refused.
    private func concurrencyLimitStep() async {
        let (calls, room) = (6, 2)
        let endpoint = Endpoint<Product, NoModuleCodes>(
            .get, "scenarios/burst/b/products/1", query: [URLQueryItem(name: "capacity", value: "\(room)")])
        begin(
            "\(calls) calls at once, a server with room for \(room): the concurrency limit queues the rest",
            "BadBackend's burst scenario answers \(room) requests at once, after a delay, and refuses any more with 503 at once. "
                + "The concurrency limit lets \(room) calls run and queues the others, first come first served; no retries here.",
            code: [
                "pipeline.concurrencyLimit = ConcurrencyLimit(maximumConcurrentCalls: \(room))",
                Self.sendLine(endpoint) + "  // × \(calls), at once",
            ])
        let limit = ConcurrencyLimit(maximumConcurrentCalls: room)
        let client = client(.b, concurrencyLimit: limit, retry: .never)
        let isTheCall = Self.requests(to: endpoint)
        let before = await backend.requestLog.entries.count(where: isTheCall)
        let (results, load) = await withTaskGroup(of: Result<Product, APIError<AppCode, NoModuleCodes>>.self) { group in
            for _ in 0..<calls {
                group.addTask { await Self.result { () async throws(APIError<AppCode, NoModuleCodes>) in try await client.send(endpoint) } }
            }
            var load = limit.load
            // Each round: the running calls' requests reach the server, whose clock then answers them.
            for round in 1...(calls / room) {
                _ = try? await backend.requestLog.entries(where: isTheCall, atLeast: before + room * round, within: .seconds(30))
                if round == 1 {
                    await Self.yield(until: { limit.load.waiting >= calls - room })
                    load = limit.load
                }
                await backendClock.advance(by: backend.configuration.slowAnswerDelay + .seconds(1))
            }
            return (await group.reduce(into: []) { $0.append($1) }, load)
        }
        block("limit", ["\(load.running) running, \(load.waiting) waiting, when the first requests reached the server"])
        block("app", Self.runs(results.map { show($0) }.sorted()))
        block("log", logLines())
        let requests = await backend.requestLog.entries.count(where: isTheCall) - before
        let refused = results.count { if case .failure = $0 { true } else { false } }
        block("server", ["\(requests) requests, \(refused) refused"])
        block("read", [TourArticle.survivingAnOutage.reference])
    }

    /// The payload in green, or the error as the app's `switch` sees it in red.
    private func show<Payload>(_ result: Result<Payload, APIError<AppCode, NoModuleCodes>>) -> String {
        switch result {
        case .success(let payload): terminal.paint("\(payload)", .good)
        case .failure(let error): terminal.paint(Self.received(error), .bad)
        }
    }

    /// What `body` answered or threw.
    static func result<Payload>(
        _ body: () async throws(APIError<AppCode, NoModuleCodes>) -> Payload
    ) async -> Result<Payload, APIError<AppCode, NoModuleCodes>> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// Lets other tasks run until `condition` holds, or a bounded number of turns has passed:
    /// how the tour knows that calls wait inside a stage, which has no event for it.
    static func yield(until condition: () -> Bool) async {
        var turns = 0
        while !condition(), turns < 1_000_000, !Task.isCancelled {
            await Task.yield()
            turns += 1
        }
    }

    /// Whether a request the server logged is one of `endpoint`'s, whatever its query.
    static func requests<Payload, Module>(to endpoint: Endpoint<Payload, Module>) -> @Sendable (LoggedRequest) -> Bool {
        let path = "/" + endpoint.path
        return { $0.path.prefix { $0 != "?" } == path }
    }

    /// The send of `endpoint` as the app writes it.
    static func sendLine<Payload, Module>(_ endpoint: Endpoint<Payload, Module>) -> String {
        var arguments = [".\(endpoint.method.rawValue.lowercased())", "\"\(endpoint.path)\""]
        if !endpoint.query.isEmpty {
            let items = endpoint.query.map { "URLQueryItem(name: \"\($0.name)\", value: \"\($0.value ?? "")\")" }
            arguments.append("query: [" + items.joined(separator: ", ") + "]")
        }
        if let timeout = endpoint.timeout { arguments.append("timeout: .seconds(\(timeout.components.seconds))") }
        return "try await client.send(Endpoint<\(typeName(Payload.self)), \(typeName(Module.self))>(\(arguments.joined(separator: ", "))))"
    }

    /// A type as Swift source names it: `[Product]`, not `Array<Product>`.
    static func typeName(_ type: Any.Type) -> String {
        let name = String(describing: type)
        guard name.hasPrefix("Array<"), name.hasSuffix(">") else { return name }
        return "[" + name.dropFirst("Array<".count).dropLast() + "]"
    }

    /// An outage opens the circuit breaker, calls fail on the device with an alert that says
    /// when, and a probe closes it when the backend is back.
    private func outageStep() async {
        begin(
            "An outage opens the circuit breaker; a probe closes it",
            "BadBackend answers 503 to the first 4 requests. The breaker opens at half of 4 attempts, for 20 s: "
                + "calls then fail on the device, without a request, and the alert says when. The demo skips the wait.",
            code: [
                "pipeline.circuitBreaker = CircuitBreaker(failureRatio: 0.5, minimumThroughput: 4, breakDuration: .seconds(20))",
                Self.sendLine(
                    Endpoint<Product, NoModuleCodes>(
                        .get, "scenarios/http-503/b/products/2", query: [URLQueryItem(name: "failures", value: "4")]))
                    + "  // three times",
            ])
        let clock = TestClock()
        let breaker = CircuitBreaker(failureRatio: 0.5, minimumThroughput: 4, breakDuration: .seconds(20), clock: clock, logger: nil)
        // Subscribed before the outage: a transition is heard by the streams open when it happens.
        var iterator = breaker.transitions.makeAsyncIterator()
        let client = client(.b, circuitBreaker: breaker)
        let endpoint = Endpoint<Product, NoModuleCodes>(
            .get, "scenarios/http-503/b/products/2",
            query: [URLQueryItem(name: "failures", value: "4")])
        let before = await backend.requestLog.entries.count
        var lines: [String] = []
        var lastError: APIError<AppCode, NoModuleCodes>?
        for call in 1...3 {
            if call == 3 {
                await clock.advance(by: .seconds(20))
                lines.append(terminal.paint("20 s later: the circuit is half-open, and the next call is its probe", .dim))
            }
            do {
                let product = try await client.send(endpoint)
                lines.append("call \(call): " + terminal.paint("\(product)", .good))
            } catch {
                lines.append("call \(call): " + terminal.paint(Self.received(error), .bad))
                lastError = error
            }
            if call == 2, let lastError {
                block("app", lines)
                block("alert", alertLines(for: lastError))
                lines = []
            }
        }
        block("app", lines)
        block("log", logLines())
        let requests = await backend.requestLog.entries.count - before
        var transitions: [String] = []
        for _ in 0..<3 {
            guard let transition = await iterator.next() else { break }
            transitions.append("\(transition.from.rawValue) → \(transition.to.rawValue)")
        }
        block("circuit", [transitions.joined(separator: ", ")])
        block("server", ["\(requests) requests: 3 attempts of call 1, call 2's first (its retry met the open circuit), the probe"])
        block("read", [TourArticle.survivingAnOutage.reference])
    }

    /// The last good answer stands in while the circuit is open: the screen shows what it had,
    /// marked as saved, and no request leaves the device.
    private func savedAnswerStep() async {
        let product = Endpoint<Product, NoModuleCodes>(.get, "b/products/2")
        let outage = Endpoint<Product, NoModuleCodes>(.get, "scenarios/http-503/b/products/2")
        begin(
            "During an outage the screen shows what it had, marked as saved",
            "The product screen loads product 2, and the answer is saved. Then the backend fails: 3 attempts get 503 and the "
                + "breaker opens. The screen reloads: no request leaves the device, and the saved answer stands in, with a notice "
                + "instead of an alert.",
            code: [
                "pipeline.savedAnswers = SavedAnswers()  // in memory; BackstopSQLite keeps them across launches",
                #"let response = try await client.response(for: Endpoint<Product, NoModuleCodes>(.get, "b/products/2"))"#,
                "if let saved = response.savedAnswer { showBanner(RecoveryPolicy.standard.notice(for: saved).message) }",
            ])
        let clock = TestClock()
        let breaker = CircuitBreaker(failureRatio: 0.5, minimumThroughput: 4, breakDuration: .seconds(20), clock: clock, logger: nil)
        let client = client(.b, circuitBreaker: breaker, savedAnswers: SavedAnswers())
        var lines: [String] = []
        do {
            let first = try await client.response(for: product)
            lines.append("load:   " + terminal.paint("\(first.payload)", .good) + terminal.paint("  (saved)", .dim))
        } catch {
            lines.append("load:   " + terminal.paint(Self.received(error), .bad))
        }
        do {
            _ = try await client.send(outage)
            lines.append("outage: the backend answered after all")
        } catch {
            lines.append(
                "outage: " + terminal.paint(Self.received(error), .bad) + terminal.paint("  (another screen; the circuit opens)", .dim))
        }
        clearLogs()
        let before = await backend.requestLog.entries.count
        var notice: [String] = ["none"]
        do {
            let reload = try await client.response(for: product)
            lines.append("reload: " + terminal.paint("\(reload.payload)", .good))
            if let saved = reload.savedAnswer {
                notice = [RecoveryPolicy(catalog: Self.catalog).notice(for: saved, locale: Locale(identifier: "en")).message]
                lines.append(terminal.paint("        saved answer, standing in for \(Self.standsInFor(saved))", .dim))
            }
        } catch {
            lines.append("reload: " + terminal.paint(Self.received(error), .bad))
        }
        block("app", lines)
        block("notice", notice)
        block("log", logLines())
        let requests = await backend.requestLog.entries.count - before
        block("server", ["\(requests) requests for the reload"])
        block("read", [TourArticle.showingSavedData.reference])
    }

    /// The failure a saved answer stood in for, as the app's `switch` sees it.
    static func standsInFor(_ saved: SavedAnswerUse) -> String {
        guard let failure = saved.failure else { return "nothing" }
        if let error = failure as? APIError<AppCode, NoModuleCodes> { return received(error) }
        return "\(failure)"
    }

    /// The step that runs once the server has stopped.
    func showRefusedConnection() async {
        await step(
            "A refused connection",
            "BadBackend has stopped, and nothing listens on port 1 of this machine. The client retries a refused connection twice, then gives up.",
            .b, Endpoint<Product, NoModuleCodes>(.get, "b/products/1"), read: .recoveringFromErrors, baseURL: Self.refusedURL)
    }

    /// The drift every client of the tour recorded, as a backend team would read it.
    func showContractDrift() {
        terminal.line()
        terminal.line("▸ What this tour's backend broke, for its team", .heading)
        terminal.line(
            "  Every call recorded its repairs in one ContractDriftRecorder; `backstop report` renders a saved one the same way.", .dim)
        block("code", ["let drift = ContractDriftRecorder()", "pipeline.contractDrift = drift", "print(drift.report().table())"])
        for line in drift.report().table().split(separator: "\n") { terminal.line("  " + line) }
        block("read", [TourArticle.tellingYourBackendTeam.reference])
    }

    /// Where to go from here: what to run, what to read, where the tour's code is.
    func showNextSteps() {
        terminal.line()
        terminal.line("▸ Next steps", .heading)
        block(
            "run",
            [
                "swift run backstop serve --port 8080 --token-lifetime 10   # BadBackend for your app; tokens expire in 10 s",
                "curl http://127.0.0.1:8080/scenarios                        # every resource, scenario and setting",
                "swift run backstop check http://127.0.0.1:8080/scenarios/numbers-as-strings/b/products/1 --contract b",
            ])
        block(
            "read",
            [
                TourArticle.callingYourBackend.reference + ": a client, its pipeline, sessions",
                TourArticle.recoveringFromErrors.reference + ": alerts in SwiftUI, UIKit and TCA",
                TourArticle.testing.reference,
                TourArticle.resources.reference + ": what BadBackend serves",
            ])
        block("code", ["Sources/BackstopCLI/Demo/BackendTour.swift: every scene of this tour, as an app writes it"])
    }

    /// Where nothing listens: connecting is refused at once. Port 1 rather than BadBackend's
    /// own once it stopped, which another server may have taken since (tests run the demo beside others).
    static let refusedURL = URL(string: "http://127.0.0.1:1") ?? URL(fileURLWithPath: "/")

    private func step<Payload, Module>(
        _ title: String, _ note: String, _ style: EnvelopeStyle, _ endpoint: Endpoint<Payload, Module>,
        read article: TourArticle, code: [String] = [], baseURL: URL? = nil, generalCodes: GeneralCodeEvents? = nil,
        attemptTimeout: Duration? = nil, show: (Payload) -> String = { "\($0)" }
    ) async {
        begin(title, note, code: code + [Self.sendLine(endpoint)])
        // Subscribed before the call: an event published while no stream is open is kept by nobody.
        let events = generalCodes?.events
        do {
            let client = client(style, baseURL: baseURL, generalCodes: generalCodes, attemptTimeout: attemptTimeout)
            let response = try await client.response(for: endpoint)
            let repairs = response.repairs.isEmpty ? "" : " (\(response.repairs.count) repairs in response.repairs)"
            block("app", [terminal.paint(show(response.payload), .good) + repairs])
            block("log", logLines())
            block("alert", ["none"])
        } catch {
            block("app", [terminal.paint(Self.received(error), .bad)])
            block("log", logLines())
            block("alert", alertLines(for: error))
        }
        if let events {
            let role = await Self.firstEvent(in: events)
            block("events", [role.map { "\($0), once, before the caller got its error: the app shows one banner" } ?? "none"])
        }
        block("read", [article.reference])
    }

    /// The first role `events` heard (published before the call returns); `nil` if none
    /// comes within a few seconds.
    static func firstEvent(in events: AsyncStream<ServerCodeRole>) async -> ServerCodeRole? {
        await withTaskGroup(of: ServerCodeRole?.self) { group in
            group.addTask {
                var iterator = events.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(5))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Signs in, lets the token expire on the server's clock, and sends parallel requests with
    /// it: one refresh, each request replayed, and what BadBackend's request log saw.
    private func tokenRefreshStep() async {
        let lifetime = backend.configuration.accessTokenLifetime.components.seconds
        begin(
            "A token expires under \(Self.parallelRequests) parallel requests: exactly one refresh",
            "The app signs in; then BadBackend's clock jumps past the token's \(lifetime) s lifetime (the demo skips the wait), "
                + "and \(Self.parallelRequests) requests start at once with the expired token. The session runs one refresh "
                + "and replays each request that heard \"token expired\" with the new token.",
            code: [
                "let session = AuthSession(authenticator: TokenAuthenticator(refresher: client), credential: tokens)",
                "pipeline.authentication = .session(session)",
                #"try await app.send(Endpoint<Account, NoModuleCodes>(.get, "b/account"))  // × 5, at once"#,
            ])
        let logged = await backend.requestLog.entries.count
        let refresher = client(.b)
        let results: [Result<Account, APIError<AppCode, NoModuleCodes>>]
        do {
            let tokens = try await refresher.send(
                Endpoint<Tokens, NoModuleCodes>(
                    .post, "b/auth/sign-in", body: ["user": "ada"], requiresAuthentication: false))
            let auth = AuthSession(
                authenticator: TokenAuthenticator(refresher: refresher), credential: tokens,
                clock: backendClock)
            await backendClock.advance(by: backend.configuration.accessTokenLifetime + .seconds(1))
            let app = client(.b, session: auth)
            results = await withTaskGroup { group in
                for _ in 0..<Self.parallelRequests {
                    group.addTask { () -> Result<Account, APIError<AppCode, NoModuleCodes>> in
                        do throws(APIError<AppCode, NoModuleCodes>) {
                            return .success(try await app.send(Endpoint<Account, NoModuleCodes>(.get, "b/account")))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        } catch {
            results = [.failure(error)]
        }
        let received = results.map { result in
            switch result {
            case .success(let account): terminal.paint("\(account)", .good)
            case .failure(let error): terminal.paint(Self.received(error), .bad)
            }
        }
        block("app", Self.runs(received.sorted()))
        block("log", logLines())
        let seen = await backend.requestLog.entries.dropFirst(logged)
        let refreshes = seen.count { $0.path.hasSuffix("/auth/refresh") }
        block(
            "server",
            ["\(refreshes) refresh\(refreshes == 1 ? "" : "es") for \(Self.parallelRequests) requests; BadBackend's request log:"]
                + Self.runs(seen.map { UntrustedText.escaped($0.method + " " + $0.path + ($0.credential.map { " with " + $0 } ?? "")) }))
        let failure = results.lazy.compactMap { result -> APIError<AppCode, NoModuleCodes>? in
            if case .failure(let error) = result { error } else { nil }
        }.first
        block("alert", failure.map { alertLines(for: $0) } ?? ["none"])
        block("read", [TourArticle.sessions.reference])
    }

    /// Starts a step: its title, what it shows and the app's code behind it, with the logs
    /// emptied for it.
    func begin(_ title: String, _ note: String, code: [String]) {
        clearLogs()
        terminal.line()
        terminal.line("▸ \(title)", .heading)
        terminal.line("  \(note)", .dim)
        block("code", code.map { terminal.paint($0, .note) })
    }

    /// Empties the engineers' logs, so the next lines shown are the next call's.
    func clearLogs() {
        clientLog.clear()
        repairLog.clear()
    }

    /// The alert a user would see for `error`, with its buttons, or `none`.
    private func alertLines<Module>(for error: APIError<AppCode, Module>) -> [String] {
        let alert = RecoveryPolicy(catalog: Self.catalog).alert(for: error, locale: Locale(identifier: "en"))
        return alert.map { $0.terminalText.split(separator: "\n").map(String.init) } ?? ["none"]
    }

    /// Repeated lines in a row as one, with how many: `GET /b/account × 5`.
    static func runs(_ lines: [String]) -> [String] {
        var runs: [(line: String, count: Int)] = []
        for line in lines {
            if runs.last?.line == line { runs[runs.count - 1].count += 1 } else { runs.append((line, 1)) }
        }
        return runs.map { $0.count == 1 ? $0.line : "\($0.line) × \($0.count)" }
    }

    /// A label, then lines aligned after it.
    func block(_ label: String, _ lines: [String]) {
        let width = max(7, label.count + 2)
        for (index, line) in lines.enumerated() {
            let prefix =
                index == 0 ? (label + ":").padding(toLength: width, withPad: " ", startingAt: 0) : String(repeating: " ", count: width)
            terminal.line("  " + terminal.paint(prefix, .dim) + line)
        }
    }

    /// What the engineers' log got: each repair, then the client's line for the call.
    func logLines() -> [String] {
        let repairs = repairLog.entries.map { entry in
            let found = entry.metadata["found"].map { "\($0)" } ?? "?"
            let expected = entry.metadata["expected"].map { "\($0)" } ?? "?"
            return terminal.paint("\(entry.level) \(entry.message) (expected \(expected), found \(found))", .note)
        }
        let calls = clientLog.entries.map { entry in
            "\(entry.level) \(entry.message)" + (entry.metadata["retries"].map { " [retries: \($0)]" } ?? "")
        }
        return repairs + calls
    }

    /// The app's client for `style`, authenticated by `session` when given.
    private func client(
        _ style: EnvelopeStyle, baseURL: URL? = nil, session: AuthSession<TokenAuthenticator>? = nil,
        circuitBreaker: CircuitBreaker? = nil, generalCodes: GeneralCodeEvents? = nil, coalescing: RequestCoalescing? = nil,
        hedging: Hedging? = nil, concurrencyLimit: ConcurrencyLimit? = nil, retry: RetryPolicy = Self.retryPolicy,
        attemptTimeout: Duration? = nil, savedAnswers: SavedAnswers? = nil
    ) -> APIClient<AppCode> {
        let contract =
            switch style {
            case .a: BuiltInContracts.a
            case .b: BuiltInContracts.b
            case .c: BuiltInContracts.c
            }
        let (clientLog, repairLog) = (clientLog, repairLog)
        let pipeline = ClientPipeline(
            logging: RequestLogging(logger: Logger(label: "backstop.client") { _ in clientLog }),
            contractDrift: drift,
            coalescing: coalescing,
            savedAnswers: savedAnswers,
            concurrencyLimit: concurrencyLimit,
            generalCodes: generalCodes,
            // Each attempt has the transport's own timeout: the tour's clock may pass at once in tests.
            timeout: nil,
            retry: retry,
            circuitBreaker: circuitBreaker,
            hedging: hedging,
            authentication: session.map(Authentication.session),
            attemptTimeout: attemptTimeout,
            clock: retryClock,
            timeoutClock: retryClock)
        return APIClient<AppCode>(
            baseURL: baseURL ?? self.baseURL, contract: contract,
            decoder: ResilientJSONDecoder(reporter: LoggingRepairReporter(logger: Logger(label: "backstop.repairs") { _ in repairLog })),
            pipeline: pipeline)
    }

    /// The error as the app's `switch` sees it.
    static func received<Module>(_ error: APIError<AppCode, Module>) -> String {
        switch error {
        case .server(.general(let code, _)): ".server(.general(.\(code)))"
        case .server(.module(let code, _)): ".server(.module(.\(code)))"
        case .server(.unknown(let code, let message)): ".server(.unknown(\(code), \"\(message ?? "")\"))"
        case .http(let failure): ".http(\(failure))"
        case .transport(let failure): ".transport(.\(failure.reason.rawValue))"
        case .decoding(let failure): ".decoding(\(failure.part) at \(failure.path) \(failure.problem))"
        case .client(let failure): ".client(.\(failure.reason.name))"
        }
    }
}
