import Foundation

#if SQLite
    import GRDB
#else
    #error("BackstopSQLite needs Backstop's SQLite trait: .package(name: \"Backstop\", …, traits: [\"SQLite\"])")
#endif

/// The store's tables, one migration per version: a file written by a later version (one this
/// migrator does not know) or by another program is not ours to change, and is moved aside.
enum StoreSchema {
    /// `PRAGMA application_id` of every store file ("BkSt"): a database without it that holds
    /// tables belongs to another program.
    static let applicationID: Int32 = 0x426B_5374

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // `size` before `body`, so reading the sizes of many rows never reads their answers.
            // `savedAt` is in seconds since 2001, `Date`'s own reference, so a `Date` comes back
            // exact; `usedAt` is the order of saves and uses, which a clock can tie.
            try db.execute(
                sql: """
                    CREATE TABLE answer (
                        key TEXT NOT NULL UNIQUE,
                        user TEXT,
                        savedAt DOUBLE NOT NULL,
                        usedAt INTEGER NOT NULL,
                        size INTEGER NOT NULL,
                        status INTEGER NOT NULL,
                        contentType TEXT,
                        entityTag TEXT,
                        lastModified TEXT,
                        body BLOB NOT NULL
                    );
                    CREATE INDEX answer_usedAt ON answer(usedAt);
                    CREATE INDEX answer_savedAt ON answer(savedAt);
                    CREATE INDEX answer_user ON answer(user) WHERE user IS NOT NULL;
                    """)
        }
        return migrator
    }
}
