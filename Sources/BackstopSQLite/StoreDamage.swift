import Foundation

#if SQLite
    import GRDB
#else
    #error("BackstopSQLite needs Backstop's SQLite trait: .package(name: \"Backstop\", …, traits: [\"SQLite\"])")
#endif

/// Why a store file is not used as it is: it is moved aside and a new one made.
enum StoreDamage: Error, CustomStringConvertible {
    /// SQLite found the file damaged, or not a database at all.
    case damaged(String)
    /// A database of another program: tables and no store's application id.
    case foreign
    /// A store written by a later version of this library, whose schema this one does not know.
    case later

    var description: String {
        switch self {
        case .damaged(let why): "it is damaged (\(why))"
        case .foreign: "it is another program's database"
        case .later: "a later version of Backstop wrote it"
        }
    }

    /// Whether `error` says the file itself is damaged, rather than that it cannot be opened
    /// or written (a read-only folder, a full disk), which moving it aside would not mend.
    static func isDamage(_ error: any Error) -> Bool {
        if error is StoreDamage { return true }
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }
}
