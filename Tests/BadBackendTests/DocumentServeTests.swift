import Backstop
import BackstopOpenAPI
import BadBackend
import Clocks
import Foundation
import Testing

/// BadBackend serving an app's own document over loopback: each operation's answer, the
/// parameters a server checks, and each misbehaviour made where the schema says.
@Suite("BadBackend serving an OpenAPI document", .timeLimit(.minutes(1)))
struct DocumentServeTests {
    static let contract = Result { try OpenAPIContract(data: TestDocuments.data("shop.yaml")) }
    static let bankContract = Result { try OpenAPIContract(data: TestDocuments.data("bank.json")) }

    static let orderID = "0b9e4c1a-6f0e-4b8e-9a51-2f6f1f0c2d11"

    /// `operationID`'s answer repaired by the document's contract: the repairs a generated client's would make.
    static func repairs(_ fetched: Fetched, _ operationID: String, contract: OpenAPIContract) throws -> [String] {
        try contract.repair(fetched.body, operationID: operationID, status: fetched.status, contentType: fetched.header("Content-Type"))
            .repairs.map(\.description)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Every operation answers: its example where it has one, else a value its schema allows")
    func everyOperationAnswers() async throws {
        let contract = try Self.contract.get()
        try await TestDocuments.serving(try TestDocuments.served("shop.yaml")) { base, _ in
            let product = try await HTTP.fetch(base, "/products/17")
            #expect(product.status == 200)
            #expect(product.header("Content-Type") == "application/json; charset=utf-8")
            // The example as written (its members in name order).
            #expect(
                product.text
                    == #"{"addedAt":"2024-03-01T08:30:00Z","category":"drink","id":17,"name":"Oat milk","price":2.49,"stock":40,"tags":["vegan","chilled"]}"#
            )
            let answers: [(String, String, String, Int)] = [
                ("GET", "/products", "listProducts", 200), ("GET", "/basket", "getBasket", 200),
                ("POST", "/basket/items", "addToBasket", 201), ("GET", "/orders/\(Self.orderID)", "getOrder", 200),
                ("GET", "/stores", "listStores", 200),
            ]
            for (method, path, operationID, status) in answers {
                let fetched = try await HTTP.fetch(base, path, method: method)
                #expect(fetched.status == status, "\(method) \(path)")
                #expect(try Self.repairs(fetched, operationID, contract: contract) == [], "\(method) \(path): \(fetched.text)")
            }
            // Generated values keep the schema's bounds, formats and enums.
            let page = try await HTTP.fetch(base, "/products")
            let items = try #require(page.value(at: "items") as? [[String: Any]])
            #expect(!items.isEmpty && items.count <= 3)
            for item in items {
                #expect(["food", "drink", "household", "other"].contains(item["category"] as? String ?? ""))
                #expect((item["price"] as? Double ?? -1) >= 0)
                #expect(ISO8601DateFormatter().date(from: item["addedAt"] as? String ?? "") != nil)
            }
            let order = try await HTTP.fetch(base, "/orders/\(Self.orderID)")
            #expect(UUID(uuidString: order.value(at: "id") as? String ?? "") != nil)
            #expect(["EUR", "GBP", "USD"].contains(order.value(at: "currency") as? String ?? ""))
            let health = try await HTTP.fetch(base, "/health")
            #expect(health.status == 204)
            #expect(health.body.isEmpty)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Generated values are the same for the same seed, and differ for another")
    func seeded() async throws {
        func stores(_ seed: UInt64) async throws -> String {
            try await TestDocuments.serving(try TestDocuments.served("shop.yaml", seed: seed)) { base, _ in
                try await HTTP.fetch(base, "/stores").text
            }
        }
        let first = try await stores(7)
        #expect(try await stores(7) == first)
        #expect(try await stores(8) != first)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Paths, methods and parameters are checked as a server checks them: 404, 405, 400")
    func parametersChecked() async throws {
        try await TestDocuments.serving(try TestDocuments.served("shop.yaml")) { base, backend in
            let cases: [(String, String, Int, String)] = [
                ("GET", "/nowhere", 404, "the document has no operation at /nowhere"),
                ("DELETE", "/products", 405, "/products answers GET"),
                ("GET", "/products/abc", 400, "path parameter productId must be an integer, not 'abc'"),
                ("GET", "/products?limit=ten", 400, "query parameter limit must be an integer, not 'ten'"),
                (
                    "GET", "/products?category=toys", 400,
                    "query parameter category must be one of food, drink, household, other, not 'toys'"
                ),
                ("GET", "/products?inStock=maybe", 400, "query parameter inStock must be true or false, not 'maybe'"),
            ]
            for (method, path, status, reason) in cases {
                let fetched = try await HTTP.fetch(base, path, method: method)
                #expect(fetched.status == status, "\(method) \(path)")
                #expect(fetched.value(at: "error") as? String == reason, "\(method) \(path)")
            }
            #expect(try await HTTP.fetch(base, "/products", method: "DELETE").header("Allow") == "GET")
            // The servers' base path may lead; the parameters that fit answer.
            #expect(try await HTTP.fetch(base, "/v2/products?category=drink&limit=5&inStock=true").status == 200)
            // Refused requests are not logged; answered ones are.
            #expect(await backend.requestLog.entries.map(\.path) == ["/v2/products?category=drink&limit=5&inStock=true"])
        }
        try await TestDocuments.serving(try TestDocuments.served("bank.json")) { base, _ in
            let missing = try await HTTP.fetch(base, "/accounts/\(Self.orderID)/transactions")
            #expect(missing.status == 400)
            #expect(missing.value(at: "error") as? String == "query parameter page is required")
            #expect(try await HTTP.fetch(base, "/accounts/\(Self.orderID)/transactions?page=2&kind=card").status == 200)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A request names its misbehaviour by header or by path prefix; the log says which")
    func headerAndPrefix() async throws {
        try await TestDocuments.serving(try TestDocuments.served("shop.yaml")) { base, backend in
            let byHeader = try await HTTP.fetch(base, "/products/17", headers: ["Backstop-Scenario": "numbers-as-strings"])
            let byPath = try await HTTP.fetch(base, "/scenarios/numbers-as-strings/products/17")
            let dirty =
                #"{"addedAt":"2024-03-01T08:30:00Z","category":"drink","id":"17","name":"Oat milk","price":"2.49","stock":"40","tags":["vegan","chilled"]}"#
            #expect(byHeader.text == dirty)
            #expect(byPath.text == dirty)
            #expect(byHeader.header("Backstop-Scenario-Applied") == "numbers-as-strings")
            let odd = try await HTTP.fetch(base, "/products/17", headers: ["Backstop-Scenario": "odd-dates"])
            #expect(odd.value(at: "addedAt") as? String == "2024-03-01 08:30:00")
            let entries = await backend.requestLog.entries
            #expect(entries.map(\.scenarioName) == ["numbers-as-strings", "numbers-as-strings", "odd-dates"])
            #expect(entries.map(\.scenario) == [.dirty(.numbersAsStrings), .dirty(.numbersAsStrings), nil])
            let unknown = try await HTTP.fetch(base, "/products/17", headers: ["Backstop-Scenario": "sometimes"])
            #expect(unknown.status == 400)
            #expect(try await HTTP.fetch(base, "/scenarios/sometimes/products/17").status == 404)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Each dirt is made where the schema says, and the document's contract repairs it",
        arguments: [
            ("numbers-as-strings", #"$.id: expected integer, found string "17"; coerced"#),
            ("nulls-and-missing-fields", "$.category: expected Category, found null; defaultedBecauseNull"),
            ("unknown-enum-values", #"$.category: expected Category, found string "backstop-unknown-value"; fellBack"#),
            ("broken-array-element", #"$.tags[1]: expected string, found object {"broken":true}]}; dropped"#),
            ("odd-dates", #"$.addedAt: expected string, found string "2024-03-01 08:30:00"; coerced"#),
            ("trailing-commas", "$: expected Product, found object ,; ignoredTrailingComma"),
            ("latin-1", #"$.name: expected string, found string \\xE8; replacedInvalidUnicode"#),
        ])
    func dirtRepaired(scenario: String, firstRepair: String) async throws {
        let contract = try Self.contract.get()
        try await TestDocuments.serving(try TestDocuments.served("shop.yaml")) { base, _ in
            let fetched = try await HTTP.fetch(base, "/products/17", headers: ["Backstop-Scenario": scenario])
            #expect(fetched.status == 200)
            let repairs = try Self.repairs(fetched, "getProduct", contract: contract)
            #expect(repairs.first?.hasPrefix(firstRepair) == true, "\(repairs)")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("NaN goes where a number is declared: the contract drops the element that holds it, or fails a required field")
    func notANumber() async throws {
        try await TestDocuments.serving(try TestDocuments.served("bank.json")) { base, _ in
            let accounts = try await HTTP.fetch(base, "/accounts", headers: ["Backstop-Scenario": "nan"])
            #expect(accounts.text.contains(#""amount":NaN"#))
            let repairs = try Self.repairs(accounts, "listAccounts", contract: try Self.bankContract.get())
            #expect(repairs.first?.hasPrefix("$.data[0]: expected Account, found number NaN; dropped") == true, "\(repairs)")
        }
        try await TestDocuments.serving(try TestDocuments.served("shop.yaml")) { base, _ in
            let product = try await HTTP.fetch(base, "/products/17", headers: ["Backstop-Scenario": "nan"])
            #expect(product.text.contains(#""price":NaN"#))
            #expect(throws: DecodingFailure.self) { try Self.repairs(product, "getProduct", contract: try Self.contract.get()) }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A byte-order mark leads the clean JSON")
    func byteOrderMark() async throws {
        try await TestDocuments.serving(try TestDocuments.served("shop.yaml")) { base, _ in
            let clean = try await HTTP.fetch(base, "/products/17")
            let marked = try await HTTP.fetch(base, "/products/17", headers: ["Backstop-Scenario": "byte-order-mark"])
            #expect(marked.body == Data([0xEF, 0xBB, 0xBF]) + clean.body)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An app-wide code goes where the answer carries one; an expired token only where security is declared")
    func codesAndTokens() async throws {
        try await TestDocuments.serving(try TestDocuments.served("bank.json")) { base, _ in
            let maintenance = try await HTTP.fetch(base, "/accounts", headers: ["Backstop-Scenario": "maintenance"])
            #expect(maintenance.status == 200)
            #expect(maintenance.value(at: "code") as? Int == BadBackend.GeneralCode.maintenance.rawValue)
            #expect(maintenance.value(at: "message") as? String == "Down for maintenance")
            let expired = try await HTTP.fetch(base, "/accounts", headers: ["Backstop-Scenario": "token-expired"])
            #expect(expired.status == 200)
            #expect(expired.value(at: "code") as? Int == BadBackend.GeneralCode.tokenExpired.rawValue)
            // The rates need no credentials: nothing to expire.
            let rates = try await HTTP.fetch(base, "/rates", headers: ["Backstop-Scenario": "token-expired"])
            #expect(rates.status == 200)
            #expect(rates.header("Backstop-Scenario-Applied") == "none: token-expired finds nothing to change in GET /rates")
            #expect(rates.value(at: "base") as? String == "EUR")
        }
        try await TestDocuments.serving(
            try TestDocuments.served("bank.json"), configuration: .init(expiredToken: .unauthorized)
        ) { base, _ in
            let expired = try await HTTP.fetch(base, "/accounts", headers: ["Backstop-Scenario": "token-expired"])
            #expect(expired.status == 401)
            #expect(expired.header("WWW-Authenticate")?.hasPrefix(#"Bearer error="invalid_token""#) == true)
        }
        try await TestDocuments.serving(try TestDocuments.served("shop.yaml")) { base, _ in
            // No code in the shop's answers: a 401 with the document's own body for it.
            let expired = try await HTTP.fetch(base, "/basket", headers: ["Backstop-Scenario": "token-expired"])
            #expect(expired.status == 401)
            #expect(expired.value(at: "title") is String)
            #expect(expired.value(at: "status") is Int)
            let maintenance = try await HTTP.fetch(base, "/basket", headers: ["Backstop-Scenario": "maintenance"])
            #expect(maintenance.header("Backstop-Scenario-Applied")?.hasPrefix("none: maintenance") == true)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Statuses carry Retry-After and the document's body for them; broken answers break; failures=N heals")
    func statusesAndBrokenAnswers() async throws {
        try await TestDocuments.serving(try TestDocuments.served("shop.yaml")) { base, _ in
            let storm = try await HTTP.fetch(base, "/stores", headers: ["Backstop-Scenario": "http-503"])
            #expect(storm.status == 503)
            #expect(storm.header("Retry-After") == "1")
            #expect(storm.value(at: "error") as? String == "Service Unavailable")
            let missing = try await HTTP.fetch(base, "/products/17", headers: ["Backstop-Scenario": "http-404"])
            #expect(missing.status == 404)
            #expect(missing.value(at: "title") is String)
            let html = try await HTTP.fetch(base, "/stores", headers: ["Backstop-Scenario": "html-error-page"])
            #expect(html.status == 502)
            #expect(html.text.contains("502 Bad Gateway"))
            let empty = try await HTTP.fetch(base, "/stores", headers: ["Backstop-Scenario": "empty-body"])
            #expect(empty.status == 200 && empty.body.isEmpty)
            let clean = try await HTTP.fetch(base, "/products/17")
            let truncated = try await HTTP.fetch(base, "/products/17", headers: ["Backstop-Scenario": "truncated-body"])
            #expect(truncated.body == clean.body.prefix(clean.body.count / 2))
            let first = try await HTTP.fetch(base, "/scenarios/http-500/stores?failures=1")
            let second = try await HTTP.fetch(base, "/scenarios/http-500/stores?failures=1")
            #expect(first.status == 500)
            #expect(second.status == 200)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A trickled answer arrives whole once the slow delay has passed on the server's clock")
    func trickle() async throws {
        let clock = TestClock()
        try await TestDocuments.serving(
            try TestDocuments.served("shop.yaml"), configuration: .init(slowAnswerDelay: .seconds(10)), clock: clock
        ) { base, backend in
            let clean = try await HTTP.fetch(base, "/products/17")
            async let trickled = HTTP.fetch(base, "/products/17", headers: ["Backstop-Scenario": "trickle"])
            _ = try await backend.requestLog.entries(where: { $0.scenarioName == "trickle" }, atLeast: 1)
            await clock.advance(by: .seconds(11))
            let answer = try await trickled
            #expect(answer.status == 200)
            #expect(answer.body == clean.body)
            #expect(answer.header("Backstop-Scenario-Applied") == "trickle")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A whole-server scenario and random faults apply to requests that name none")
    func wholeServer() async throws {
        try await TestDocuments.serving(try TestDocuments.served("shop.yaml", scenario: "numbers-as-strings")) { base, _ in
            #expect(try await HTTP.fetch(base, "/products/17").value(at: "id") as? String == "17")
            let named = try await HTTP.fetch(base, "/products/17", headers: ["Backstop-Scenario": "unknown-enum-values"])
            #expect(named.value(at: "id") as? Int == 17)
        }
        try await TestDocuments.serving(
            try TestDocuments.served("shop.yaml"), configuration: .init(randomFaults: RandomFaults(rate: 1, seed: 3))
        ) { base, backend in
            let fetched = try await HTTP.fetch(base, "/stores")
            let fault = try #require(RandomFaults(rate: 1, seed: 3).fault(method: "GET", path: "/stores", attempt: 1))
            #expect(await backend.requestLog.entries.first?.scenario == fault)
            #expect(fetched.status != 200 || fault == .emptyBody || fault == .truncatedBody || fault == .wrongContentType)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("GET /scenarios lists each operation with what changes its answer, and every scenario")
    func catalogue() async throws {
        try await TestDocuments.serving(try TestDocuments.served("shop.yaml")) { base, _ in
            let catalogue = try await HTTP.fetch(base, "/scenarios")
            let operations = try #require(catalogue.value(at: "operations") as? [[String: Any]])
            #expect(
                operations.map { $0["operationId"] as? String } == [
                    "listProducts", "getProduct", "getBasket", "addToBasket", "getOrder", "listStores", "health",
                ])
            let getProduct = try #require(operations.first { $0["operationId"] as? String == "getProduct" })
            #expect(getProduct["example"] as? Bool == true)
            let scenarios = try #require(getProduct["scenarios"] as? [String])
            #expect(scenarios.contains("unknown-enum-values"))
            #expect(!scenarios.contains("token-expired"))
            let basket = try #require(operations.first { $0["operationId"] as? String == "getBasket" })
            #expect((basket["scenarios"] as? [String])?.contains("token-expired") == true)
            let names = try #require(catalogue.value(at: "scenarios") as? [[String: Any]]).compactMap { $0["name"] as? String }
            #expect(names == BadBackend.ServedDocument.scenarioNames)
            #expect(catalogue.value(at: "header") as? String == "Backstop-Scenario")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A recursive schema's generated value ends, and fits")
    func recursiveSchema() async throws {
        let contract = try Self.bankContract.get()
        try await TestDocuments.serving(try TestDocuments.served("bank.json")) { base, _ in
            let tree = try await HTTP.fetch(base, "/spending-categories")
            #expect(tree.status == 200)
            #expect(try Self.repairs(tree, "spendingCategories", contract: contract) == [])
            var depth = 0
            var level: Any? = tree.json
            while let node = level as? [String: Any], let children = node["children"] as? [Any] {
                depth += 1
                level = children.first
            }
            #expect(depth > 1 && depth <= 24)
            // A discriminated oneOf: each transaction's kind names the alternative its fields are.
            let page = try await HTTP.fetch(base, "/accounts/\(Self.orderID)/transactions?page=1")
            #expect(try Self.repairs(page, "listTransactions", contract: contract) == [])
            let items = try #require(page.value(at: "data.items") as? [[String: Any]])
            for item in items {
                let kind = item["kind"] as? String
                #expect(kind == "card" ? item["merchant"] != nil : item["counterparty"] != nil)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Each of 300 operations answers")
    func largeDocument() async throws {
        let served = try TestDocuments.served("large.yaml")
        #expect(served.operations.count == 300)
        try await TestDocuments.serving(served) { base, _ in
            for operation in served.operations {
                let parts = operation.split(separator: " ", maxSplits: 1)
                let path = String(parts[1]).replacingOccurrences(of: #"\{[^}]+\}"#, with: "1", options: .regularExpression)
                let fetched = try await HTTP.fetch(base, path, method: String(parts[0]))
                #expect([200, 201, 204].contains(fetched.status), "\(operation): \(fetched.status) \(fetched.text)")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A generated answer's code field carries a success code: the schema's own, else 200 (0 for errorCode)")
    func successCode() async throws {
        let envelope = EnvelopeContract(code: "code", message: ["message"], payload: "data", success: .codes([200]))
        try await TestDocuments.serving(try TestDocuments.served("bank.json")) { base, _ in
            for path in ["/accounts", "/accounts/\(Self.orderID)/transactions?page=1"] {
                let clean = try await HTTP.fetch(base, path)
                #expect(clean.value(at: "code") as? Int == 200, "\(path): \(clean.text)")
                let read = try envelope.envelope(of: try ParsedJSON(clean.body), status: .ok)
                #expect(read.outcome == .success(payloadAt: "data"), "\(path): \(clean.text)")
            }
        }
        let document = """
            openapi: 3.1.0
            info: {title: Codes, version: '1'}
            paths:
              /listed: {get: {responses: {'200': {description: A, content: {application/json: {schema: {type: object, properties: {code: {type: integer, enum: [0, 1]}, data: {type: string}}}}}}}}}
              /defaulted: {get: {responses: {'200': {description: A, content: {application/json: {schema: {type: object, properties: {statusCode: {type: integer, default: 1000}}}}}}}}}
              /errors: {get: {responses: {'200': {description: A, content: {application/json: {schema: {type: object, properties: {errorCode: {type: integer}}}}}}}}}
              /bounded: {get: {responses: {'200': {description: A, content: {application/json: {schema: {type: object, properties: {code: {type: integer, maximum: 99}}}}}}}}}
            """
        let served = try BadBackend.ServedDocument(data: Data(document.utf8), source: "codes.yaml", seed: 3)
        try await TestDocuments.serving(served) { base, _ in
            let listed = try await HTTP.fetch(base, "/listed")
            #expect(listed.value(at: "code") as? Int == 0)
            let defaulted = try await HTTP.fetch(base, "/defaulted")
            #expect(defaulted.value(at: "statusCode") as? Int == 1000)
            let errors = try await HTTP.fetch(base, "/errors")
            #expect(errors.value(at: "errorCode") as? Int == 0)
            let bounded = try await HTTP.fetch(base, "/bounded")
            #expect(bounded.value(at: "code") as? Int == 0)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A generated answer carries the path's id where a property of its type has the parameter's name, or is the id")
    func pathIDs() async throws {
        try await TestDocuments.serving(try TestDocuments.served("shop.yaml")) { base, _ in
            let order = try await HTTP.fetch(base, "/orders/\(Self.orderID)")
            #expect(order.value(at: "id") as? String == Self.orderID)
            let other = "5d3e1f2a-0c4b-4e6a-8f7d-9a1b2c3d4e5f"
            let second = try await HTTP.fetch(base, "/orders/\(other)")
            #expect(second.value(at: "id") as? String == other)
            // The rest of the answer is the same: only the id follows the path.
            #expect(second.text == order.text.replacingOccurrences(of: Self.orderID, with: other))
            let again = try await HTTP.fetch(base, "/orders/\(other)")
            #expect(again.text == second.text)
            // An example is the document's own: it is served as written.
            let product = try await HTTP.fetch(base, "/products/3")
            #expect(product.value(at: "id") as? Int == 17)
        }
        let document = """
            openapi: 3.1.0
            info: {title: Pets, version: '1'}
            paths:
              /pets/{petId}:
                get:
                  parameters: [{name: petId, in: path, required: true, schema: {type: integer}}]
                  responses: {'200': {description: A pet, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}}
              /owners/{owner_id}/pets/{pet_id}:
                get:
                  parameters:
                    - {name: owner_id, in: path, required: true, schema: {type: string}}
                    - {name: pet_id, in: path, required: true, schema: {type: string}}
                  responses:
                    '200':
                      description: A pet in an envelope
                      content: {application/json: {schema: {type: object, properties: {code: {type: integer}, data: {$ref: '#/components/schemas/Pet'}}}}}
            components:
              schemas:
                Pet: {type: object, required: [id, name, owner_id], properties: {id: {type: integer}, name: {type: string}, owner_id: {type: string}}}
            """
        let served = try BadBackend.ServedDocument(data: Data(document.utf8), source: "pets.yaml", seed: 5)
        try await TestDocuments.serving(served) { base, _ in
            let pet = try await HTTP.fetch(base, "/pets/42")
            #expect(pet.value(at: "id") as? Int == 42)
            let other = try await HTTP.fetch(base, "/pets/7")
            #expect(other.value(at: "id") as? Int == 7)
            let owned = try await HTTP.fetch(base, "/owners/ann/pets/7")
            #expect(owned.value(at: "data.id") as? Int == 7)
            #expect(owned.value(at: "data.owner_id") as? String == "ann")
            // "seven" is no integer: the id stays the generated one.
            let named = try await HTTP.fetch(base, "/owners/ann/pets/seven")
            #expect(named.value(at: "data.id") is Int)
            #expect(named.value(at: "data.owner_id") as? String == "ann")
            // Dirt is made in the answer the request gets.
            let dirty = try await HTTP.fetch(base, "/pets/42", headers: ["Backstop-Scenario": "numbers-as-strings"])
            #expect(dirty.value(at: "id") as? String == "42")
        }
    }
}
