import Backstop
import BackstopSQLite
import BackstopTesting
import Foundation
import Testing

/// The article *Showing Saved Data During an Outage*'s snippet for the SQLite store, compiled
/// and run: a call saves through it into the file.
@Suite struct SQLiteStoreDocumentationTests {
    static func savingToDisk(in folder: URL) -> ClientPipeline {
        var pipeline = ClientPipeline()
        pipeline.savedAnswers = SavedAnswers(
            store: SQLiteAnswerStore(fileURL: folder.appendingPathComponent("saved-answers.sqlite")))
        return pipeline
    }

    struct Group: Decodable, Equatable {
        var id: Int
    }

    @Test func theArticlesPipelineSavesIntoTheFile() async throws {
        let folder = try StoreFolder()
        var pipeline = Self.savingToDisk(in: folder.url)
        pipeline.logging = nil
        pipeline.metrics = nil
        let transport = StubTransport()
        transport.stub(.get, "groups/7", StubResponse(body: Data(#"{"id":7}"#.utf8)))
        let client = APIClient<NoModuleCodes>(baseURL: URL(string: "https://api.example.com")!, pipeline: pipeline, transport: transport)

        #expect(try await client.send(Endpoint<Group, NoModuleCodes>(.get, "groups/7")) == Group(id: 7))
        let store = try #require(pipeline.savedAnswers?.store as? SQLiteAnswerStore)
        await store.flush()
        #expect(store.fileURL.lastPathComponent == "saved-answers.sqlite")
        #expect(await store.usage().entries == 1)
        #expect(FileManager.default.fileExists(atPath: store.fileURL.path))
    }
}
