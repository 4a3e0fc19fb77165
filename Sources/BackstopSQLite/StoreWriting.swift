import Backstop
import Foundation

#if SQLite
    import GRDB
#else
    #error("BackstopSQLite needs Backstop's SQLite trait: .package(name: \"Backstop\", …, traits: [\"SQLite\"])")
#endif

/// One batch of writes in one transaction: purges, then saves, then uses, then the store brought
/// back within its limits, oldest and least recently used first.
///
/// Every statement finds its rows by an index (the key, the user, `savedAt`, `usedAt`), and the
/// totals are carried rather than summed, so a batch costs the same at 100,000 answers as at
/// 1,000. The totals change only when the transaction commits.
struct StoreWriting {
    let database: OpenedDatabase
    let limits: SavedAnswerLimits
    /// The oldest `savedAt` kept, in seconds since 2001.
    let oldest: Double

    /// Applies `batch`; returns the keys of the answers evicted to make room or for their age.
    func apply(_ batch: PendingWrites, in db: Database) throws -> [String] {
        var evicted: [String] = []
        var entries = database.entries
        var bytes = database.bytes
        func deleted(_ sizes: [Int]) {
            entries -= sizes.count
            bytes -= sizes.reduce(0, +)
        }
        try db.inTransaction {
            for removal in batch.removals {
                switch removal {
                case .all:
                    try db.execute(sql: "DELETE FROM answer")
                    entries = 0
                    bytes = 0
                case .user(let user):
                    deleted(try Int.fetchAll(db, sql: "DELETE FROM answer WHERE user = ? RETURNING size", arguments: [user]))
                case .key(let key):
                    deleted(try Int.fetchAll(db, sql: "DELETE FROM answer WHERE key = ? RETURNING size", arguments: [key]))
                }
            }
            for save in batch.saves.values {
                let entry = save.entry
                deleted(
                    try Int.fetchAll(db.cachedStatement(sql: "DELETE FROM answer WHERE key = ? RETURNING size"), arguments: [entry.key]))
                try db.cachedStatement(
                    sql: """
                        INSERT INTO answer (key, user, savedAt, usedAt, size, status, contentType, entityTag, lastModified, body)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """
                ).execute(
                    arguments: [
                        entry.key, entry.user, entry.savedAt.timeIntervalSinceReferenceDate, database.useBase + save.order, entry.size,
                        entry.status,
                        entry.contentType, entry.entityTag, entry.lastModified, entry.body,
                    ])
                entries += 1
                bytes += entry.size
            }
            for (key, order) in batch.uses {
                try db.cachedStatement(sql: "UPDATE answer SET usedAt = max(usedAt, ?) WHERE key = ?").execute(
                    arguments: [database.useBase + order, key])
            }
            let expired = try Row.fetchAll(
                db.cachedStatement(sql: "DELETE FROM answer WHERE savedAt < ? RETURNING key, size"), arguments: [oldest])
            deleted(expired.map { $0[1] })
            evicted += expired.map { $0[0] }
            while entries > 0 && (entries > limits.maximumEntries || bytes > limits.maximumTotalBytes) {
                let count = max(1, entries - limits.maximumEntries)
                let rows = try Row.fetchAll(
                    db.cachedStatement(
                        sql: "DELETE FROM answer WHERE rowid IN (SELECT rowid FROM answer ORDER BY usedAt LIMIT ?) RETURNING key, size"),
                    arguments: [count])
                if rows.isEmpty {
                    // The totals were wrong: what the table holds is the truth.
                    entries = 0
                    bytes = 0
                    break
                }
                deleted(rows.map { $0[1] })
                evicted += rows.map { $0[0] }
            }
            return .commit
        }
        database.entries = entries
        database.bytes = bytes
        if !batch.removals.isEmpty {
            // Removed answers (a signed-out user's) leave the journal too, not only the database.
            _ = try? db.checkpoint(.truncate)
        }
        return evicted
    }
}
