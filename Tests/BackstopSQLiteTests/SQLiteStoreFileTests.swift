import Backstop
import BackstopSQLite
import Foundation
import GRDB
import Testing

/// Files a store cannot use as they are: each is moved aside and a new store made, or the store
/// lives in memory, with a log line; nothing throws, and the store goes on saving and answering.
@Suite struct SQLiteStoreFileTests {
    @Test func aFileThatIsNotADatabaseIsMovedAside() async throws {
        let folder = try StoreFolder()
        let garbage = Data(repeating: 0xA5, count: 10_000)
        try garbage.write(to: folder.file)

        try await Self.expectWorking(folder.store())
        #expect(FileManager.default.contents(atPath: folder.file.path + ".moved-aside") == garbage)
        #expect(folder.messages.contains { $0.contains("moved aside") && $0.contains("damaged") })
    }

    @Test func anotherProgramsDatabaseIsMovedAsideUntouched() async throws {
        let folder = try StoreFolder()
        do {
            let foreign = try DatabaseQueue(path: folder.file.path)
            try await foreign.write { db in
                try db.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
            }
            try foreign.close()
        }

        try await Self.expectWorking(folder.store())
        let aside = try DatabaseQueue(path: folder.file.path + ".moved-aside")
        #expect(try await aside.read { db in try String.fetchOne(db, sql: "SELECT text FROM notes") } == "mine")
        #expect(folder.messages.contains { $0.contains("another program's database") })
    }

    @Test func aStoreWrittenByALaterVersionIsMovedAside() async throws {
        let folder = try StoreFolder()
        let earlier = try await StoreProbe.run(["save", folder.file.path, "0", "3", "100"])
        #expect(earlier.status == 0)
        do {
            let later = try DatabaseQueue(path: folder.file.path)
            try await later.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')") }
            try later.close()
        }

        try await Self.expectWorking(folder.store())
        #expect(folder.messages.contains { $0.contains("a later version of Backstop wrote it") })
    }

    @Test func aDatabaseWithDamagedPagesIsMovedAside() async throws {
        let folder = try StoreFolder()
        let written = try await StoreProbe.run(["save", folder.file.path, "0", "200", "1000"])
        #expect(written.status == 0)
        do {
            // Everything into the main file, then pages in its middle overwritten.
            let checkpoint = try DatabaseQueue(path: folder.file.path)
            _ = try await checkpoint.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            try checkpoint.close()
            let handle = try FileHandle(forWritingTo: folder.file)
            try handle.seek(toOffset: 4096 * 4)
            try handle.write(contentsOf: Data(repeating: 0x5A, count: 4096 * 8))
            try handle.close()
        }

        try await Self.expectWorking(folder.store())
        #expect(folder.messages.contains { $0.contains("moved aside") })
    }

    @Test func whereNoFileCanBeMadeAnswersAreKeptInMemory() async throws {
        let folder = try StoreFolder()
        // A regular file where the store's folder would be: no folder, no file, even as root.
        let blocker = folder.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let store = SQLiteAnswerStore(fileURL: blocker.appendingPathComponent("answers.sqlite"), logger: folder.logger)

        try await Self.expectWorking(store)
        #expect(folder.messages.contains { $0.contains("kept in memory") })
    }

    @Test func aFullDiskFailsNoCallAndKeepsWhatWasWritten() async throws {
        let folder = try StoreFolder()
        // 40 pages of 4 KiB: room for the schema and a few small answers, not for a 400 KB one.
        let store = SQLiteAnswerStore(fileURL: folder.file, limits: SavedAnswerLimits(), logger: folder.logger, maximumPageCount: 40)
        for index in 0..<5 { store.save(Answers.answer(index, bytes: 500)) }
        await store.flush()
        let evicted = EvictionCount()
        store.save(Answers.answer(100, bytes: 400_000), evicted: evicted.add)
        await store.flush()

        #expect(folder.messages.contains { $0.contains("could not write") && $0.contains("full") })
        // Its write failed: not saved, and not reported as saved.
        #expect(evicted.calls == 0)
        #expect(await store.answer(for: Answers.key(100)) == nil)
        for index in 0..<5 { #expect(await store.answer(for: Answers.key(index))?.body == Answers.answer(index, bytes: 500).body) }
        // What fits is still saved.
        store.save(Answers.answer(6, bytes: 500))
        await store.flush()
        #expect(await store.answer(for: Answers.key(6)) != nil)
        #expect(await store.usage().entries == 6)
    }

    /// Saves, flushes, answers and removes on `store`, as an app's calls would.
    static func expectWorking(_ store: SQLiteAnswerStore) async throws {
        let answer = Answers.answer(1)
        store.save(answer)
        await store.flush()
        #expect(await store.answer(for: answer.key) == answer)
        store.removeAnswers(of: "user-1")
        #expect(await store.answer(for: answer.key) == nil)
        store.save(answer)
        await store.flush()
        #expect(await store.answer(for: answer.key) == answer)
    }
}
