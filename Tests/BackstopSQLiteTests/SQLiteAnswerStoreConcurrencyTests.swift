import Backstop
import BackstopSQLite
import Foundation
import Testing

/// The store shared by many tasks at once (CI runs this suite again under ThreadSanitizer):
/// 1,000 tasks saving the same keys and different ones, looking up and removing, end with every
/// answer whole and the totals exact.
@Suite struct SQLiteAnswerStoreConcurrencyTests {
    @Test func aThousandTasksSavingTheSameAndDifferentKeys() async throws {
        let folder = try StoreFolder()
        let store = folder.store(limits: SavedAnswerLimits(maximumTotalBytes: 64 << 20, maximumEntries: 100_000))
        let evicted = EvictionCount()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<1_000 {
                group.addTask {
                    // Ten keys shared by every task, and one of its own.
                    store.save(Answers.answer(index % 10, user: "shared"), evicted: evicted.add)
                    store.save(Answers.answer(index, user: "own"), evicted: evicted.add)
                    _ = await store.answer(for: Answers.key(index % 10, user: "shared"))
                    if index % 100 == 0 { store.removeAnswers(of: "nobody") }
                }
            }
        }
        await store.flush()

        for index in 0..<1_000 {
            #expect(await store.answer(for: Answers.key(index, user: "own")) == Answers.answer(index, user: "own").withSavedAt(of: store))
        }
        for index in 0..<10 { #expect(await store.answer(for: Answers.key(index, user: "shared"))?.body == Answers.answer(index).body) }
        let usage = await store.usage()
        #expect(usage.entries == 1_010)
        let expectedBytes =
            (0..<1_000).reduce(0) { $0 + Answers.answer($1, user: "own").byteCount }
            + (0..<10).reduce(0) { $0 + Answers.answer($1, user: "shared").byteCount }
        #expect(usage.bytes == expectedBytes)
        // Each save that was kept reported once; none evicted anything.
        #expect(evicted.total == 0)
        #expect(evicted.calls == 2_000)
    }

    @Test func aUserRemovedWhileOthersSaveLeavesNoneOfTheirs() async throws {
        let folder = try StoreFolder()
        let store = folder.store()
        for index in 0..<200 { store.save(Answers.answer(index, user: "leaving")) }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<500 {
                group.addTask { store.save(Answers.answer(index, user: "staying")) }
                if index == 250 { group.addTask { store.removeAnswers(of: "leaving") } }
            }
        }
        for index in 0..<200 { #expect(await store.answer(for: Answers.key(index, user: "leaving")) == nil) }
        await store.flush()
        #expect(await store.usage().entries == 500)
    }
}

extension SavedAnswer {
    /// This answer with the `savedAt` of the one `store` holds under its key, so two can be
    /// compared whole.
    func withSavedAt(of store: SQLiteAnswerStore) async -> SavedAnswer {
        var answer = self
        answer.savedAt = await store.answer(for: key)?.savedAt ?? savedAt
        return answer
    }
}
