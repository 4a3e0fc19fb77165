import Foundation

#if SQLite
    import GRDB
#else
    #error("BackstopSQLite needs Backstop's SQLite trait: .package(name: \"Backstop\", …, traits: [\"SQLite\"])")
#endif

/// The store's database once opened, and what its answers add up to.
///
/// The totals are kept here rather than summed from the table, so that bounding the store after
/// a write costs the same at 100,000 answers as at 1,000. Only code running on the database's
/// writer reads or changes them, one write at a time: that serial queue is their lock.
final class OpenedDatabase: @unchecked Sendable {
    let writer: any DatabaseWriter
    /// Which opening of the store this is: a damaged file is replaced once, however many calls
    /// meet its damage.
    let generation: Int
    /// Where it lives; `nil` in memory, where it is only when no file could be made.
    let path: String?
    /// Above every `usedAt` in the file when it was opened: this opening's saves and uses are
    /// written as this plus their order, so they come after every earlier one.
    let useBase: Int
    var entries: Int
    var bytes: Int

    init(writer: any DatabaseWriter, generation: Int, path: String?, totals: StoreFile.Totals) {
        self.writer = writer
        self.generation = generation
        self.path = path
        useBase = totals.lastUse + 1
        entries = totals.entries
        bytes = totals.bytes
    }
}
