import Foundation
import Logging

#if SQLite
    import GRDB
#else
    #error("BackstopSQLite needs Backstop's SQLite trait: .package(name: \"Backstop\", …, traits: [\"SQLite\"])")
#endif

/// Where a store lives, and how it is opened: a damaged, foreign or later file is moved aside
/// and a new store made; where no file can be made at all, the store lives in memory until the
/// app ends. Each of these is logged; none throws.
struct StoreFile: Sendable {
    let url: URL
    let logger: Logger?
    /// `PRAGMA max_page_count`, when a test makes the disk fill up.
    let maximumPageCount: Int?

    /// Where a moved-aside file goes: one, replaced by the next, so a file that keeps being
    /// damaged never fills the disk.
    var asideURL: URL { url.appendingPathExtension("moved-aside") }

    /// Opens the store, on the caller's thread: callers run it off the call's path.
    func open(generation: Int) -> OpenedDatabase? {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            return try openFile(generation: generation)
        } catch {
            guard StoreDamage.isDamage(error) else { return openInMemory(generation: generation, because: error) }
            moveAside(because: ((error as? StoreDamage) ?? StoreDamage.damaged("\(error)")).description)
            do {
                return try openFile(generation: generation)
            } catch {
                return openInMemory(generation: generation, because: error)
            }
        }
    }

    /// Moves the file and its journal aside, replacing what was there before.
    func moveAside(because reason: String) {
        let manager = FileManager.default
        for suffix in ["", "-wal", "-shm"] {
            let from = URL(fileURLWithPath: url.path + suffix)
            let to = URL(fileURLWithPath: asideURL.path + suffix)
            try? manager.removeItem(at: to)
            guard manager.fileExists(atPath: from.path) else { continue }
            do {
                try manager.moveItem(at: from, to: to)
            } catch {
                // A file that cannot be moved aside is not left for the new store to open.
                try? manager.removeItem(at: from)
            }
        }
        logger?.warning(
            "Backstop's saved answers: \(url.path) was not used because \(reason); moved aside to \(asideURL.path) and a new store made",
            metadata: ["path": .string(url.path), "moved_to": .string(asideURL.path)])
    }

    private func openFile(generation: Int) throws -> OpenedDatabase {
        var configuration = Configuration()
        configuration.label = "backstop.saved-answers"
        // Another process of the app (an extension) may be writing: wait a little, not fail.
        configuration.busyMode = .timeout(2)
        let maximumPageCount = maximumPageCount
        configuration.prepareDatabase { db in
            // Deleted answers (a signed-out user's) are overwritten, not left in free pages.
            try db.execute(sql: "PRAGMA secure_delete = ON")
            // In WAL mode a commit survives the app's crash or kill without waiting for the disk;
            // only a power cut can lose the last ones, which a store of answers can afford.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            if let maximumPageCount { try db.execute(sql: "PRAGMA max_page_count = \(maximumPageCount)") }
        }
        let pool = try DatabasePool(path: url.path, configuration: configuration)
        do {
            let totals = try Self.prepare(pool)
            protect()
            return OpenedDatabase(writer: pool, generation: generation, path: url.path, totals: totals)
        } catch {
            try? pool.close()
            throw error
        }
    }

    /// What a store's file holds when it is opened.
    struct Totals {
        var entries: Int
        var bytes: Int
        /// The highest `usedAt`.
        var lastUse: Int
    }

    /// Checks that the database is a store of this version, undamaged, brings its schema up to
    /// date, and reads its totals.
    static func prepare(_ writer: any DatabaseWriter) throws -> Totals {
        let migrator = StoreSchema.migrator
        try writer.barrierWriteWithoutTransaction { db in
            let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            if id != StoreSchema.applicationID {
                let objects = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
                guard objects == 0 else { throw StoreDamage.foreign }
                try db.execute(sql: "PRAGMA application_id = \(StoreSchema.applicationID)")
            }
            if try migrator.hasBeenSuperseded(db) { throw StoreDamage.later }
            let check = try String.fetchAll(db, sql: "PRAGMA quick_check")
            guard check == ["ok"] else { throw StoreDamage.damaged(check.prefix(3).joined(separator: "; ")) }
        }
        try migrator.migrate(writer)
        return try writer.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(size), 0), coalesce(max(usedAt), 0) FROM answer")
            return Totals(entries: row?[0] ?? 0, bytes: row?[1] ?? 0, lastUse: row?[2] ?? 0)
        }
    }

    private func openInMemory(generation: Int, because error: any Error) -> OpenedDatabase? {
        logger?.warning(
            "Backstop's saved answers: \(url.path) cannot be opened (\(error)); answers are kept in memory until the app ends",
            metadata: ["path": .string(url.path)])
        do {
            let queue = try DatabaseQueue()
            return OpenedDatabase(writer: queue, generation: generation, path: nil, totals: try Self.prepare(queue))
        } catch {
            logger?.warning("Backstop's saved answers: no store could be made in memory either (\(error)); nothing is saved")
            return nil
        }
    }

    /// On Apple platforms, the file and its journal are readable once the user has unlocked the
    /// device after it started, also while it is locked again: an app woken in the background
    /// finds its saved answers, and they are encrypted until that first unlock.
    private func protect() {
        #if canImport(Darwin)
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.setAttributes(
                    [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: url.path + suffix)
            }
        #endif
    }
}
