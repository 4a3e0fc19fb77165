import Clocks
import Foundation
import Synchronization
import Testing

@testable import BackstopCLI

/// `backstop demo`, the README's first command, run in-process in plain-text mode.
@Suite("backstop demo", .timeLimit(.minutes(1)))
struct DemoTests {
    /// Every line the demo wrote; retry backoffs pass at once on an immediate clock.
    static func demoOutput() async throws -> [String] {
        let lines = Mutex<[String]>([])
        let terminal = Terminal(colors: false) { line in lines.withLock { $0.append(line) } }
        try await DemoCommand.tour(on: terminal, retryClock: ImmediateClock())
        return lines.withLock { $0 }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("It ends cleanly and every step prints its key facts, without colour codes")
    func everyStep() async throws {
        let output = try await Self.demoOutput()
        let text = output.joined(separator: "\n")
        #expect(!text.contains("\u{1B}["))
        // Each step in order: title, then what the app received, and the facts that follow it.
        let facts: [[String]] = [
            ["read: “BackstopJSON”, Sources/BackstopJSON/BackstopJSON.docc/BackstopJSON.md"],
            [
                "▸ A product whose numbers arrive as strings",
                "code: let report = try ResilientJSONDecoder().decodeWithReport(Product.self, from: data)",
                #"repair $.id: expected Int, found string "42"; coerced"#,
            ],
            ["▸ A beverage the app has never heard of", "favouriteBeverage: .unknown"],
            ["▸ A list with one broken element", "; dropped"],
            [
                "▸ A JavaScript backend cuts a string in the middle of an emoji", "Foundation's JSONDecoder: dataCorrupted at $",
                #"Inbox(messages: [1 "hi", 2 "cut \#u{FFFD}"])"#,
                #"repair $.messages[1].text: expected String, found string \\ud83d; replacedInvalidUnicode"#,
            ],
            [
                "▸ A legacy backend sends Latin-1", "Foundation's JSONDecoder: dataCorrupted at $",
                #"Inbox(messages: [1 "hi", 2 "caf\#u{FFFD}"])"#,
                #"repair $.messages[1].text: expected String, found string \\xE9; replacedInvalidUnicode"#,
            ],
            [
                "▸ JSON built by string concatenation, with a raw tab", "Foundation's JSONDecoder: dataCorrupted at $",
                #"Inbox(messages: [1 "hi", 2 "a\tb"])"#,
                #"repair $.messages[1].text: expected String, found string \\u0009; acceptedControlCharacter"#,
            ],
            [
                "▸ Python's json.dumps writes NaN and Infinity", "Foundation's JSONDecoder: dataCorrupted at $",
                "Sensor(readings: [1 21.5, 2 nan, 3 inf])",
                "repair $.readings[1].value: expected Double, found number NaN; acceptedNonFiniteNumber",
                "repair $.readings[2].value: expected Double, found number Infinity; acceptedNonFiniteNumber",
            ],
            ["Part 2. An app calls BadBackend", "http://127.0.0.1:"],
            [
                "▸ Envelope A succeeds",
                #"code:  let contract = EnvelopeContract(code: "statusCode", message: ["message"], payload: "result.data", success: .codes([200]))"#,
                #"try await client.send(Endpoint<Product, NoModuleCodes>(.get, "a/products/1"))"#,
                "app:   Product(id: 1, name: iPhone 17, price: 999.5, inStock: true, stock: 12)",
                "log:   debug GET /a/products/1 → 200 in ", "alert: none",
                "read:  “Unwrapping Envelopes and Handling Errors”, Sources/Backstop/Backstop.docc/UnwrappingEnvelopesAndHandlingErrors.md",
            ],
            ["▸ Envelope B succeeds", "app:   StudyGroup(id: 7, name: Calculus B, teamCode: K7Q2, memberCount: 3)", "alert: none"],
            ["▸ Envelope C succeeds", "app:   [Product] × 3: iPhone 17, AirPods, 特製商品", "alert: none"],
            [
                "▸ Envelope A fails with a module code", "app:   .server(.module(.wrongTeamCode))",
                #"server → module StudyGroupCode.wrongTeamCode (11210005) → "Wrong team code""#,
                "alert: Couldn't Complete Request", "That team code doesn't exist.", "1. OK (cancel)",
            ],
            [
                "▸ Envelope B fails with a general code: maintenance",
                "code:  enum AppCode: Int, ServerCode", "pipeline.generalCodes = GeneralCodeEvents(roles: [.maintenance])",
                "app:   .server(.general(.maintenance))", "alert: Service Unavailable", "1. OK (cancel)",
                "events: maintenance, once, before the caller got its error",
            ],
            [
                "▸ Envelope C fails, breaks its shape", #"app:   .server(.unknown(77777, "Something new went wrong"))"#,
                "alert: Couldn't Complete Request",
            ],
            [
                "▸ A dirty payload", "(4 repairs in response.repairs)",
                #"log:   warning Repaired $.data.id while decoding Product: coerced (expected Int, found string "1")"#,
                #"warning Repaired $.data.inStock while decoding Product: coerced (expected Bool, found string "true")"#,
                ", 1 attempt, 4 repairs", "alert: none",
            ],
            [
                "▸ A token expires under 5 parallel requests: exactly one refresh", "code:  let session = AuthSession(",
                "pipeline.authentication = .session(session)", "app:   Account(id: 1, name: Ada) × 5",
                "log:   debug POST /b/auth/sign-in → 200", "debug POST /b/auth/refresh → 200", "debug GET /b/account → 200 in ",
                "server: 1 refresh for 5 requests", "POST /b/auth/refresh with refresh-1", "GET /b/account with access-2",
                "alert: none", "read:  “Sessions”",
            ],
            [
                "▸ HTTP 503 twice, then the answer", "app:   Product(id: 1,", ", 3 attempts, 0 repairs [retries: status.503,status.503]",
                "alert: none",
            ],
            [
                "▸ HTTP 429 with Retry-After: 30", #"app:   .http(429 → code 42900 "Too Many Requests")"#,
                "[retries: status.429,status.429]", "alert: Too Many Requests", "You can try again in 30 seconds.", "1. OK (cancel)",
                "read:  “Recovering from Errors”",
            ],
            [
                "▸ A slow answer and a 1 s timeout",
                #"code:  try await client.send(Endpoint<Product, NoModuleCodes>(.get, "scenarios/slow/b/products/1", timeout: .seconds(1)))"#,
                "app:   .transport(.timedOut)", "alert: Request Timed Out", "read:  “Calling Your Backend”",
            ],
            [
                "▸ Each attempt gets 300 ms, and one that outlives it is retried", "code:  pipeline.attemptTimeout = .milliseconds(300)",
                "app:   .transport(.timedOut)", ", 3 attempts, 0 repairs: transport → timedOut",
                "[retries: transport.timedOut,transport.timedOut]", "alert: Request Timed Out",
            ],
            [
                "▸ 5 screens ask for the same product at once: one request", "code:  pipeline.coalescing = RequestCoalescing()",
                "app:   Product(id: 3, name: 特製商品, price: 42.0, inStock: false, stock: 0) × 5", "server: 1 request for 5 calls",
                "read:  “Surviving an Outage”",
            ],
            [
                "▸ A slow first answer: hedging sends the request again", "code:  pipeline.hedging = Hedging(delay: .milliseconds(200))",
                "app:   Product(id: 2, name: AirPods, price: 179.0, inStock: true, stock: 40)", ", 2 attempts, 0 repairs [retries: hedge]",
                "server: 2 requests for 1 call",
            ],
            [
                "▸ 6 calls at once, a server with room for 2",
                "code:  pipeline.concurrencyLimit = ConcurrencyLimit(maximumConcurrentCalls: 2)",
                "limit: 2 running, 4 waiting", "app:   Product(id: 1, name: iPhone 17, price: 999.5, inStock: true, stock: 12) × 6",
                "server: 6 requests, 0 refused",
            ],
            [
                "▸ An outage opens the circuit breaker; a probe closes it", "call 1: .http(503", "call 2: .client(.circuitOpen)",
                "alert: Service Unavailable", "You can try again in 20 seconds.", "call 3: Product(id: 2,",
                "circuit: closed → open, open → halfOpen, halfOpen → closed", "server: 5 requests", "read:  “Surviving an Outage”",
            ],
            [
                "▸ During an outage the screen shows what it had, marked as saved", "pipeline.savedAnswers = SavedAnswers()",
                "load:   Product(id: 2,", "outage: .http(503", "reload: Product(id: 2,",
                "saved answer, standing in for .client(.circuitOpen)", "notice: Showing what was saved at",
                "server: 0 requests for the reload", "read:  “Showing Saved Data During an Outage”",
            ],
            [
                "▸ A generated client meets numbers as strings: BackstopOpenAPI repairs against openapi.yaml",
                "code:  let openAPI = try OpenAPIContract(data: document)  // GET /openapi.yaml",
                "repairing: openAPI)", "plain: ClientError(getStudyGroup): DecodingError.typeMismatch(Int) at data.id",
                "repaired: StudyGroup(id: 7, name: Calculus B, teamCode: K7Q2, role: .owner, memberCount: 3)", ", 5 repairs",
                "read:  “Generated Clients”, Sources/BackstopOpenAPI/BackstopOpenAPI.docc/GeneratedClients.md",
            ],
            [
                "▸ Your own API: rehearse its document, then serve it dirty on request",
                "code:  swift run backstop rehearse openapi.yaml --operation getProduct",
                "curl -H 'Backstop-Scenario: numbers-as-strings' http://127.0.0.1:<port>/b/products/1",
                "rehearse: getProduct (GET /b/products/{id}):", "clean                survived  no repairs",
                #"numbers-as-strings   survived  5 repairs, the first: $.code: expected integer, found string "#,
                #"unknown-enum-values  survived  1 repair: $.data: expected Product, found string "backstop-unknown-value"; setToNil"#,
                "nan                  survived  1 repair: $.data: expected Product, found number NaN; setToNil",
                "1 operation: 4 survived, 0 failed, 0 not applicable or undescribed",
                "served: GET /b/products/1 with Backstop-Scenario: numbers-as-strings", #"{"code":""#, #""data":{"#,
                "Backstop-Scenario-Applied: numbers-as-strings",
                "read:  “Rehearsing Your Own API”, Sources/BadBackend/BadBackend.docc/RehearsingYourOwnAPI.md",
            ],
            [
                "▸ A refused connection", "app:   .transport(.cannotConnectToHost)",
                "3 attempts, 0 repairs: transport → cannotConnectToHost", "alert: Service Unavailable", "1. OK (cancel)",
            ],
            [
                "▸ What this tour's backend broke, for its team", "GET scenarios/numbers-as-strings/b/products/{id}  $.data.id",
                "string  coerced", #""1""#, "read:  “Telling Your Backend Team What's Broken”",
            ],
            ["Repairs and log lines are for engineers (logs, analytics), never for users; alerts are for users."],
            [
                "▸ Next steps", "run:   swift run backstop serve --port 8080 --token-lifetime 10", "curl http://127.0.0.1:8080/scenarios",
                "read:  “Calling Your Backend”", "“Recovering from Errors”", "“Testing an App That Uses Backstop”",
                "“Resources and their fields”",
            ],
        ]
        var position = text.startIndex
        for fact in facts.joined() {
            let found = text[position...].range(of: fact)
            #expect(found != nil, "not found after the facts before it: \(fact)")
            if let found { position = found.upperBound }
        }
        #expect(output.last == "  code:  Sources/BackstopCLI/Demo/BackendTour.swift: every scene of this tour, as an app writes it")
    }

    @Test("Every article the demo points to is where it says, under that title")
    func articlesExist() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let articles: [TourArticle] = [
            .backstopJSON, .unwrapping, .callingYourBackend, .sessions, .survivingAnOutage, .showingSavedData, .recoveringFromErrors,
            .tellingYourBackendTeam, .testing, .scenarioPaths, .resources, .generatedClients, .rehearsingYourOwnAPI,
        ]
        for article in articles {
            let text = try String(contentsOf: root.appendingPathComponent(article.file), encoding: .utf8)
            let title = text.split(separator: "\n").first.map(String.init) ?? ""
            #expect(title == "# \(article.rawValue)" || title == "# ``\(article.rawValue)``", "\(article.file)")
        }
    }

    @Test("The command parses with no arguments")
    func parses() throws {
        #expect(try BackstopCommand.parseAsRoot(["demo"]) is DemoCommand)
    }
}
