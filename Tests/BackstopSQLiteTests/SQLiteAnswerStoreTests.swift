import Backstop
import BackstopSQLite
import Foundation
import Testing

/// The store's contract through `SavedAnswerStore`: answers come back whole, per user, within
/// every bound, and removals hold at once.
@Suite struct SQLiteAnswerStoreTests {
    @Test func anAnswerComesBackWholeBeforeAndAfterItIsWritten() async throws {
        let folder = try StoreFolder()
        let store = folder.store()
        let answer = Answers.answer(1)
        store.save(answer)

        #expect(await store.answer(for: answer.key) == answer)
        await store.flush()
        #expect(await store.answer(for: answer.key) == answer)
        // A second instance reads it from the file, not from the first one's memory.
        #expect(await folder.store().answer(for: answer.key) == answer)
    }

    @Test func twoUsersNeverSeeEachOthersAnswers() async throws {
        let folder = try StoreFolder()
        let store = folder.store()
        store.save(Answers.answer(1, user: "ana"))
        await store.flush()

        #expect(await store.answer(for: Answers.key(1, user: "ana")) != nil)
        #expect(await store.answer(for: Answers.key(1, user: "bo")) == nil)
        #expect(await store.answer(for: Answers.key(1, user: nil)) == nil)
    }

    @Test func aUsersAnswersAreRemovedAtOnceAndFromTheFile() async throws {
        let folder = try StoreFolder()
        let store = folder.store()
        for index in 0..<5 {
            store.save(Answers.answer(index, user: "ana"))
            store.save(Answers.answer(index, user: "bo"))
        }
        await store.flush()

        store.removeAnswers(of: "ana")
        // Before the rows are deleted, no lookup finds them.
        #expect(await store.answer(for: Answers.key(0, user: "ana")) == nil)
        await store.flush()
        for index in 0..<5 {
            #expect(await store.answer(for: Answers.key(index, user: "ana")) == nil)
            #expect(await store.answer(for: Answers.key(index, user: "bo")) != nil)
        }
        #expect(await store.usage().entries == 5)
        #expect(await folder.store().answer(for: Answers.key(3, user: "ana")) == nil)
    }

    @Test func aRemovalCoversSavesNotWrittenYet() async throws {
        let folder = try StoreFolder()
        let store = folder.store()
        store.save(Answers.answer(1, user: "ana"))
        store.save(Answers.answer(2, user: "ana"))
        store.remove(Answers.key(1, user: "ana"))
        store.removeAnswers(of: "ana")
        store.save(Answers.answer(3, user: "ana"))

        #expect(await store.answer(for: Answers.key(1, user: "ana")) == nil)
        #expect(await store.answer(for: Answers.key(2, user: "ana")) == nil)
        await store.flush()
        #expect(await store.answer(for: Answers.key(2, user: "ana")) == nil)
        // Saved after the removal: kept.
        #expect(await store.answer(for: Answers.key(3, user: "ana")) != nil)
    }

    @Test func removeAllAndRemoveOneKey() async throws {
        let folder = try StoreFolder()
        let store = folder.store()
        for index in 0..<4 { store.save(Answers.answer(index)) }
        await store.flush()

        store.remove(Answers.key(0))
        #expect(await store.answer(for: Answers.key(0)) == nil)
        #expect(await store.answer(for: Answers.key(1)) != nil)
        store.removeAll()
        #expect(await store.answer(for: Answers.key(1)) == nil)
        #expect(await store.usage().entries == 0)
        #expect(await store.usage().bytes == 0)
    }

    @Test func theMostAnswersKeptAreTheMostRecentlyUsed() async throws {
        let folder = try StoreFolder()
        let store = folder.store(limits: SavedAnswerLimits(maximumEntries: 3))
        for index in 0..<3 { store.save(Answers.answer(index)) }
        await store.flush()
        // 0 is used, so 1 is now the least recently used.
        #expect(await store.answer(for: Answers.key(0)) != nil)
        await store.flush()
        let evicted = EvictionCount()
        store.save(Answers.answer(3), evicted: evicted.add)
        await store.flush()

        #expect(await store.answer(for: Answers.key(1)) == nil)
        for index in [0, 2, 3] { #expect(await store.answer(for: Answers.key(index)) != nil) }
        #expect(evicted.total == 1)
        #expect(await store.usage().entries == 3)
    }

    @Test func theTotalBytesHoldAfterEveryWrite() async throws {
        let folder = try StoreFolder()
        // Answers 10 to 24 take the same bytes; 0 to 9, a digit fewer.
        let one = Answers.answer(24, bytes: 1_000).byteCount
        let store = folder.store(limits: SavedAnswerLimits(maximumTotalBytes: one * 10, maximumEntryBytes: one * 2))
        let evicted = EvictionCount()
        for index in 0..<25 { store.save(Answers.answer(index, bytes: 1_000), evicted: evicted.add) }
        await store.flush()

        let usage = await store.usage()
        #expect(usage.entries == 10)
        #expect(usage.bytes <= one * 10)
        #expect(evicted.total == 15)
        #expect(evicted.calls == 25)
        // The last ten saved are the ones kept.
        #expect(await store.answer(for: Answers.key(24)) != nil)
        #expect(await store.answer(for: Answers.key(14)) == nil)
    }

    @Test func anAnswerOverTheEntryLimitIsNotSaved() async throws {
        let folder = try StoreFolder()
        let store = folder.store(limits: SavedAnswerLimits(maximumEntryBytes: 500))
        let evicted = EvictionCount()
        store.save(Answers.answer(1, bytes: 1_000), evicted: evicted.add)
        store.save(Answers.answer(2, bytes: 100), evicted: evicted.add)
        await store.flush()

        #expect(await store.answer(for: Answers.key(1)) == nil)
        #expect(await store.answer(for: Answers.key(2)) != nil)
        // Called for the saved answer only.
        #expect(evicted.calls == 1)
    }

    @Test func anAnswerPastItsAgeIsNeitherAnsweredNorKept() async throws {
        let folder = try StoreFolder()
        let clock = TestNow()
        let store = SQLiteAnswerStore(
            fileURL: folder.file, limits: SavedAnswerLimits(maximumAge: .seconds(60)), logger: folder.logger, maximumPageCount: nil,
            now: clock.now)
        store.save(Answers.answer(1, savedAt: clock.now()))
        await store.flush()
        #expect(await store.answer(for: Answers.key(1)) != nil)

        clock.advance(by: 61)
        #expect(await store.answer(for: Answers.key(1)) == nil)
        let evicted = EvictionCount()
        store.save(Answers.answer(2, savedAt: clock.now()), evicted: evicted.add)
        await store.flush()
        #expect(evicted.total == 1)
        #expect(await store.usage().entries == 1)
        // An answer already too old when handed over is not saved.
        store.save(Answers.answer(3, savedAt: clock.now().addingTimeInterval(-120)))
        #expect(await store.answer(for: Answers.key(3)) == nil)
    }

    @Test func anUnchangedAnswerGivenAgainIsRenewedAndAChangedOneRewritten() async throws {
        let folder = try StoreFolder()
        let clock = TestNow()
        func reopened() -> SQLiteAnswerStore {
            SQLiteAnswerStore(
                fileURL: folder.file, limits: SavedAnswerLimits(), logger: folder.logger, maximumPageCount: nil, now: clock.now)
        }
        let store = reopened()
        let first = Answers.answer(1, savedAt: clock.now())
        store.save(first)
        await store.flush()

        clock.advance(by: 10)
        let evicted = EvictionCount()
        store.save(Answers.answer(1, savedAt: clock.now()), evicted: evicted.add)
        #expect(evicted.calls == 1)
        #expect(await store.answer(for: first.key)?.savedAt == clock.now())
        // Renewed in memory: the file still has the first save's time, older, never newer.
        await store.flush()
        #expect(await reopened().answer(for: first.key)?.savedAt == first.savedAt)

        var changed = Answers.answer(1, savedAt: clock.now())
        changed.body = Data(#"{"group":"changed"}"#.utf8)
        store.save(changed)
        await store.flush()
        #expect(await reopened().answer(for: first.key) == changed)
    }
}
