import Backstop
import BackstopTestSupport
import BackstopTesting
import Foundation
import Testing

extension BackstopClient {
    /// Many calls saving and answering at once through one store; CI runs this suite under
    /// ThreadSanitizer.
    @Suite("Saved answers under concurrency", .timeLimit(.minutes(1)))
    struct SavedAnswerConcurrencyTests {
        static func item(_ index: Int) -> Endpoint<Item, StudyGroupCode> { Endpoint(.get, "items/\(index)") }

        static func ok(_ index: Int) -> StubResponse {
            StubResponse(status: .ok, body: Data(#"{"id":\#(index),"name":"item \#(index)"}"#.utf8))
        }

        @Test func aThousandCallsSaveTheSameAndDifferentKeysThenEachIsAnsweredFromTheStore() async throws {
            let store = InMemorySavedAnswerStore()
            let transport = StubTransport()
            for index in 0..<100 { transport.stub(.get, "items/\(index)", Self.ok(index)) }
            let client = makeClient(transport, pipeline: quietPipeline { $0.savedAnswers = SavedAnswers(store: store) })
            // Half the calls share one key, half spread over a hundred.
            let indices = (0..<1000).map { $0.isMultiple(of: 2) ? 0 : $0 % 100 }
            let fresh = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in indices { group.addTask { try await client.send(Self.item(index)).id } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(fresh.sorted() == indices.sorted())
            #expect(store.load.answers == 51)
            for index in 0..<100 { transport.stub(.get, "items/\(index)", .status(.serviceUnavailable)) }
            let saved = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for index in indices {
                    group.addTask {
                        let response = try await client.response(for: Self.item(index))
                        return (response.payload.id, response.savedAnswer != nil)
                    }
                }
                return try await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
            }
            #expect(saved.map(\.0).sorted() == indices.sorted())
            #expect(saved.allSatisfy { $0.1 })
            #expect(transport.requests.count == 2000)
        }

        @Test func savesLookupsAndRemovalsAtOnceLeaveTheStoreConsistent() async throws {
            let store = InMemorySavedAnswerStore(limits: SavedAnswerLimits(maximumEntries: 64))
            let date = Date(timeIntervalSince1970: 1_800_000_000)
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<1000 {
                    group.addTask {
                        let user = "user\(task % 4)"
                        let key = SavedAnswerKey(method: "GET", url: "https://api.example/\(task % 80)", user: user)
                        switch task % 10 {
                        case 0: store.removeAnswers(of: user)
                        case 1: _ = await store.answer(for: key)
                        case 2: store.remove(key)
                        default:
                            store.save(SavedAnswer(key: key, status: 200, body: Data("{}".utf8), savedAt: Date())) { _ in }
                        }
                    }
                }
            }
            #expect(store.load.answers <= 64)
            store.save(
                SavedAnswer(key: SavedAnswerKey(method: "GET", url: "https://api.example/last"), status: 200, body: Data(), savedAt: date)
            ) { _ in }
            store.removeAll()
            #expect(store.load.answers == 0)
            #expect(store.load.bytes == 0)
        }
    }
}
