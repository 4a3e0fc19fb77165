import Backstop
import Foundation
import Logging

#if SQLite
    import GRDB
#else
    #error("BackstopSQLite needs Backstop's SQLite trait: .package(name: \"Backstop\", …, traits: [\"SQLite\"])")
#endif

/// Saved answers kept in an SQLite file, so that an app launched offline shows the last data it
/// had.
///
/// What a caller must know:
/// - **Never in the call's way.** Saving returns at once: answers are written in batches on the
///   database's own queue. A full disk, a failed write or a damaged file never fails a call; it
///   is logged, and the answer is not kept. ``flush()`` waits for what was saved before it.
/// - **Bounded.** `SavedAnswerLimits` caps the bytes in all, the bytes of one answer, the number of answers
///   and their age; the least recently used go first. Finding an answer and bounding the store
///   use the file's indexes, so they cost the same at 100,000 answers as at 1,000.
/// - **Damage is not an error.** A file that is damaged, not a database, another program's, or
///   written by a later version of this library is moved aside (to the same name with
///   `.moved-aside` added, replacing an earlier one) and a new store made, with a log line at
///   `warning`. Where no file can be made at all (a read-only folder), answers are kept in memory
///   until the app ends, also logged.
/// - **No secret is written.** Only what the saved-answer stage hands over is stored: keys
///   without credentials, cookies or redacted query items, and answers' payloads and validators.
///   Purged answers are overwritten in the file (`secure_delete`), and the journal is emptied
///   after each purge.
/// - **Data protection.** On Apple platforms the file and its journal have the protection class
///   `completeUntilFirstUserAuthentication`: encrypted until the user first unlocks the device
///   after it starts, then readable also while it is locked, so an app woken in the background
///   still finds its saved answers.
/// - **Versioned.** The schema is migrated forward by GRDB's migrator; a file from a later
///   version is moved aside, never changed.
///
/// Share one instance per file: two instances on one file each keep their own totals.
public final class SQLiteAnswerStore: Sendable {
    /// Where the answers are kept.
    public let fileURL: URL
    /// How much the store keeps.
    public let limits: SavedAnswerLimits
    let file: StoreFile
    let now: @Sendable () -> Date
    let state: LockedValue<State>

    /// What the store's callers share: the open database, the writes not made yet, and the
    /// removals asked for.
    struct State: Sendable {
        /// The database, once opened; opening runs off the caller's thread.
        var database: Task<OpenedDatabase?, Never>
        var generation = 0
        var pending = PendingWrites()
        /// The saves of the batch being written: found by lookups until it is committed.
        var writing: [String: PendingWrites.Save] = [:]
        /// The answers written last, as the file holds them.
        var recent = RecentAnswers()
        /// Whether a task is writing the pending writes.
        var isWriting = false
        var flushes: [CheckedContinuation<Void, Never>] = []
        /// One more at each removal, so that a lookup which read the file before a removal was
        /// written can tell that what it found was removed meanwhile.
        var removalCount = 0
        /// The count of the last removal written to the file.
        var writtenRemovals = 0
        var lastRemovalOfKey: [String: Int] = [:]
        var lastRemovalOfUser: [String: Int] = [:]
        var lastRemovalOfAll = 0
        /// Lookups reading the file now: the removals they may need to know of are kept until
        /// none is.
        var readsInFlight = 0
        /// One more at each save and use: their order, which least-recently-used eviction
        /// follows.
        var useCount = 0
        /// Answers evicted by writes that saved nothing, told to the next save's caller.
        var unreportedEvictions = 0

        /// Whether a removal asked for after the one numbered `written` (the last written when
        /// a lookup began) covers `entry`.
        func removed(_ entry: StoredEntry, since written: Int) -> Bool {
            if lastRemovalOfAll > written || lastRemovalOfKey[entry.key, default: 0] > written { return true }
            guard let user = entry.user else { return false }
            return lastRemovalOfUser[user, default: 0] > written
        }

        /// Forgets the removals no lookup needs to know of any more.
        mutating func forgetWrittenRemovals() {
            guard readsInFlight == 0 else { return }
            let written = writtenRemovals
            if lastRemovalOfKey.values.contains(where: { $0 <= written }) {
                lastRemovalOfKey = lastRemovalOfKey.filter { $0.value > written }
            }
            if lastRemovalOfUser.values.contains(where: { $0 <= written }) {
                lastRemovalOfUser = lastRemovalOfUser.filter { $0.value > written }
            }
        }
    }

    /// A store in the file at `fileURL`, made if it is not there (with its folder).
    ///
    /// Returns at once: the file is opened and checked on another thread, and the first
    /// lookups wait for that.
    ///
    /// - Parameters:
    ///   - fileURL: The database file, in a folder the app owns (Application Support, or
    ///     Caches if the system may delete the answers to free space).
    ///   - limits: How much the store keeps.
    ///   - logger: Where a damaged file, a failed write or an answer not saved is reported.
    public convenience init(
        fileURL: URL, limits: SavedAnswerLimits = SavedAnswerLimits(), logger: Logger? = Logger(label: "backstop.saved-answers")
    ) {
        self.init(fileURL: fileURL, limits: limits, logger: logger, maximumPageCount: nil)
    }

    /// A store whose file can hold at most `maximumPageCount` pages (tests fill its disk), on
    /// the clock `now` (tests age its answers).
    package init(
        fileURL: URL, limits: SavedAnswerLimits, logger: Logger?, maximumPageCount: Int?, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.fileURL = fileURL
        self.limits = limits
        self.now = now
        let file = StoreFile(url: fileURL, logger: logger, maximumPageCount: maximumPageCount)
        self.file = file
        state = LockedValue(State(database: Self.opening(file, generation: 0)))
    }

    /// Opens `file` on a thread of its own: opening checks the file, which reads all of it.
    static func opening(_ file: StoreFile, generation: Int) -> Task<OpenedDatabase?, Never> {
        Task {
            await withCheckedContinuation { continuation in
                DispatchQueue.global(qos: .userInitiated).async {
                    continuation.resume(returning: file.open(generation: generation))
                }
            }
        }
    }

    /// Waits until every save, use and purge asked for before this call is written (or has
    /// failed, and was logged).
    ///
    /// Calls never need it; an app may call it before it is suspended, and tests do.
    public func flush() async {
        await withCheckedContinuation { continuation in
            let (done, starts) = state.withLock { state -> (Bool, Bool) in
                if !state.isWriting {
                    // Removals whose write failed wait here for the next write: this is one.
                    guard !state.pending.isEmpty else { return (true, false) }
                    state.isWriting = true
                    state.flushes.append(continuation)
                    return (false, true)
                }
                state.flushes.append(continuation)
                return (false, false)
            }
            if done { continuation.resume() }
            if starts { startWriting() }
        }
    }

    /// How many answers the store holds and what they add up to in bytes, once what is pending
    /// is written: never more than ``limits`` allow.
    public func usage() async -> (entries: Int, bytes: Int) {
        await flush()
        guard let database = await state.withLock({ $0.database }).value else { return (0, 0) }
        do {
            return try await database.writer.writeWithoutTransaction { _ in (database.entries, database.bytes) }
        } catch {
            return (0, 0)
        }
    }
}
