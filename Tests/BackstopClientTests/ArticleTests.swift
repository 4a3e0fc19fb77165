import Backstop
import Foundation
import Testing

/// The code of the DocC article "Calling Your Backend", kept compiling and run against the server.
extension Endpoint where Payload == Item, Module == ItemCode {
    static func item(_ id: Int) -> Self { Endpoint(.get, "items/\(id)") }

    static func rename(_ item: Item) -> Self {
        Endpoint(.put, "echo/\(item.id)", body: item, timeout: .seconds(10))
    }
}

extension BackstopClient {
    @Suite("Article: Calling Your Backend")
    struct ArticleTests {
        /// What the article's handler would do.
        enum Shown: Equatable { case item(Item), gone, nothing, alert(String) }

        static func show(_ client: APIClient<AppCode>, _ endpoint: Endpoint<Item, ItemCode>) async -> Shown {
            do {
                return .item(try await client.send(endpoint))
            } catch {
                switch error {
                case .server(.module(.notFound, _)): return .gone
                case .transport(let failure) where failure.reason == .cancelled: return .nothing
                case .transport, .http, .decoding, .server, .client: return .alert(error.groupingIdentifier)
                }
            }
        }

        @Test func theArticlesClientForBackendB() async throws {
            let server = try await TestServer.running()
            let client = APIClient<AppCode>(
                baseURL: server.baseURL,
                contract: backendB,
                middlewares: [
                    LoggingMiddleware(secretQueryItems: ["sig"]),
                    MetricsMiddleware(),
                    RetryMiddleware(),
                ]
            )
            #expect(await Self.show(client, .item(7)) == .item(Item(id: 7, name: "Item 7")))
            #expect(await Self.show(client, .rename(Item(id: 8, name: "Eight"))) == .item(Item(id: 8, name: "Eight")))
            let gone = Endpoint<Item, ItemCode>(.get, "business/\(uniqueKey())", query: [URLQueryItem(name: "code", value: "40401")])
            #expect(await Self.show(client, gone) == .gone)
        }
    }
}
