import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import HTTPTypes
import Testing

/// The code of the DocC article "Calling Your Backend", kept compiling and run against BadBackend:
/// its `AppCode` and `ItemCode` are BadBackend's general and study-group codes, its items are products.
extension Endpoint where Payload == Item, Module == StudyGroupCode {
    static func item(_ id: Int) -> Self { Endpoint(.get, "b/products/\(id)") }
}

/// The article's `rename`, against the echo, which answers with the request it got.
extension Endpoint where Payload == Echo<Item>, Module == StudyGroupCode {
    static func rename(_ item: Item) -> Self {
        Endpoint(.put, "b/echo/products/\(item.id)", body: item, timeout: .seconds(10))
    }
}

extension BackstopClient {
    @Suite("Article: Calling Your Backend")
    struct ArticleTests {
        /// What the article's handler would do.
        enum Shown: Equatable {
            case item(Item)
            case gone, nothing
            case alert(String)
        }

        static func show<Payload>(
            _ client: APIClient<GeneralCode>, _ endpoint: Endpoint<Payload, StudyGroupCode>,
            _ item: (Payload) -> Item
        ) async -> Shown {
            do {
                return .item(item(try await client.send(endpoint)))
            } catch {
                switch error {
                case .server(.module(.classNotFound, _)): return .gone
                case .transport(let failure) where failure.reason == .cancelled: return .nothing
                case .transport, .http, .decoding, .server, .client: return .alert(error.groupingIdentifier)
                }
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func theArticlesClientForBackendB() async throws {
            try await withBackend { _, url in
                // The article's pipeline, on a clock that never moves: `rename`'s 10 s timeout is
                // the article's, and a loaded machine must not trip it (a PUT once took 14.6 s with
                // both cores busy). Timeouts themselves are tested on test clocks elsewhere.
                let client = APIClient<GeneralCode>(
                    baseURL: url,
                    contract: EnvelopeContract.b,
                    pipeline: ClientPipeline(
                        redaction: Redaction(headerFields: [HTTPField.Name("X-Api-Key")!]), clock: TestClock())
                )
                #expect(await Self.show(client, .item(1), { $0 }) == .item(.one))
                #expect(await Self.show(client, .rename(Item(id: 8, name: "Eight")), \.body) == .item(Item(id: 8, name: "Eight")))
                let gone = Endpoint<Item, StudyGroupCode>(.get, "scenarios/class-not-found/b/products/1")
                #expect(await Self.show(client, gone, { $0 }) == .gone)
            }
        }
    }
}
