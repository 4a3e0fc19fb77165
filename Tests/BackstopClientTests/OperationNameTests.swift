import Backstop
import BackstopTestSupport
import BadBackend
import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
@_spi(Generated) import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// Logs and metrics group by the operation name: its default must make one group per route,
    /// however many identifiers pass through it, or every id becomes a metrics series of its own.
    @Suite("Bounded operation names")
    struct OperationNameTests {
        @Test(
            "identifier-like segments become {id}; the route's words stay",
            arguments: [
                ("groups/42", "GET groups/{id}"),
                ("/groups/42/members/7", "GET /groups/{id}/members/{id}"),
                ("orders/3F2504E0-4F89-41D3-9A0C-0305E82C3301/items", "GET orders/{id}/items"),
                ("objects/507f1f77bcf86cd799439011", "GET objects/{id}"),
                ("files/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0", "GET files/{id}"),
                ("b/products", "GET b/products"),
                ("v2/users/me", "GET v2/users/me"),
                ("teams/K7Q2", "GET teams/K7Q2"),
                ("scenarios/http-503/b/products/1", "GET scenarios/http-503/b/products/{id}"),
                ("users/alice@example.com/reset/AbCdEfGhIjKlMnOpQrStUvWxYz", "GET users/{id}/reset/{id}"),
                ("users/alice%40example.com", "GET users/{id}"),
                ("invites/@bob", "GET invites/{id}"),
                ("codes/abcdefghijklmnopqrst", "GET codes/{id}"),
                ("codes/abcdefghijklmnopqrs", "GET codes/abcdefghijklmnopqrs"),
                ("password-reset/confirm", "GET password-reset/confirm"),
            ])
        func defaultName(path: String, name: String) {
            #expect(Endpoint<NoPayload, NoModuleCodes>(.get, path).operationID == name)
        }

        @Test("a path template names the operation, and its values fill the path one segment each")
        func template() {
            let endpoint = Endpoint<NoPayload, NoModuleCodes>(
                .get, "groups/{id}/files/{name}", pathParameters: ["id": "42", "name": "a/b 100%"])
            #expect(endpoint.operationID == "GET groups/{id}/files/{name}")
            #expect(endpoint.path == "groups/42/files/a%2Fb%20100%25")
            #expect(
                Endpoint<NoPayload, NoModuleCodes>(.post, "groups/{id}/join", pathParameters: ["id": "7"], body: ["code": "X"]).operationID
                    == "POST groups/{id}/join")
            #expect(Endpoint<NoPayload, NoModuleCodes>(.get, "groups/42", operationID: "getGroup").operationID == "getGroup")
        }

        /// `.` and `..` as a path parameter, or as a segment however encoded, would change the
        /// route (URLSession resolves them, AsyncHTTPClient sends them, servers decode `%2E`):
        /// the call is refused before anything is sent.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aDotSegmentIsRefusedBeforeAnythingIsSent(transport: TransportKind) async throws {
            let server = try HostileServer.answering { _ in HostileServer.response(status: 200, body: "{}") }
            defer { server.stop() }
            let client = makeClient(server.url, transport)
            for value in ["..", "."] {
                let endpoint = Endpoint<Item, StudyGroupCode>(.get, "users/{id}/sessions", pathParameters: ["id": value])
                let error = await failure(of: client, endpoint)
                guard case .client(let refused) = error else {
                    Issue.record("\(String(describing: error))")
                    continue
                }
                #expect(refused.reason == .invalidURL)
                #expect(
                    refused.detail
                        == "the path parameter \"id\" of GET users/{id}/sessions is a dot-segment (. or ..), which would change the route"
                )
            }
            for path in ["users/../sessions", "users/./sessions", "users/%2e%2E/sessions", "/%2E/x", "a/.."] {
                let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, path, operationID: "op"))
                guard case .client(let refused) = error else {
                    Issue.record("\(path): \(String(describing: error))")
                    continue
                }
                #expect(refused.reason == .invalidURL)
                #expect(refused.detail?.hasPrefix("the path of op has the dot-segment \"") == true)
            }
            #expect(server.requests.isEmpty)
            // Dots inside a segment, and a value with dots around other characters, are sent.
            _ = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "files/{name}", pathParameters: ["name": "...x"]))
            _ = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "v1.2/a..b/.well-known"))
            #expect(server.requests.map(\.target) == ["/files/...x", "/v1.2/a..b/.well-known"])
        }

        /// A generated client's path with a dot-segment is refused by ``PipelineMiddleware`` before it is sent.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aGeneratedClientsDotSegmentIsRefusedBeforeAnythingIsSent(transport: TransportKind) async throws {
            let server = try HostileServer.answering { _ in HostileServer.response(status: 200, body: "{}") }
            defer { server.stop() }
            let client = UniversalClient(
                serverURL: server.url, transport: transport.make(),
                middlewares: [PipelineMiddleware(quietPipeline(), contract: EnvelopeContract.b, generalCodes: GeneralCode.self)])
            for path in ["/users/../sessions", "/users/%2E%2E/sessions", "/users/./x"] {
                do {
                    _ = try await GeneratedClientTests.getItem(client, path: path)
                    Issue.record("\(path) was sent")
                } catch let error as ClientError {
                    let refused = try #require(error.underlyingError as? ClientFailure)
                    #expect(refused.reason == .invalidURL)
                    #expect(refused.detail?.hasPrefix("the path of getItem has the dot-segment") == true)
                }
            }
            #expect(server.requests.isEmpty)
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func fiftyIdentifiersMakeOneLogNameAndOneMetricsSeries(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let logs = InMemoryLogHandler.keepingDebug()
                let metrics = TestMetrics()
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.logging = RequestLogging(logger: Logger(label: "names") { _ in logs })
                        $0.metrics = RequestMetrics(factory: metrics)
                    })
                for id in 1...50 {
                    _ = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "b/products/\(id)"))
                }
                let templated = Endpoint<Item, StudyGroupCode>(.get, "b/products/{id}", pathParameters: ["id": "1"])
                _ = try await client.send(templated)
                #expect(Set(logs.entries.compactMap { $0.metadata["operation"].map { "\($0)" } }) == ["GET b/products/{id}"])
                #expect(logs.entries.count == 51)
                let operations = Set(
                    metrics.counters(label: "backstop_requests_total").compactMap { counter in
                        counter.dimensions.first { $0.0 == "operation" }?.1
                    })
                #expect(operations == ["GET b/products/{id}"])
            }
        }
    }
}
