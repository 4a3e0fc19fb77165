import Backstop
import Foundation

#if SQLite
    import GRDB
#else
    #error("BackstopSQLite needs Backstop's SQLite trait: .package(name: \"Backstop\", …, traits: [\"SQLite\"])")
#endif

extension SQLiteAnswerStore {
    /// The oldest `savedAt` an answer may have at `now`, in seconds since 2001.
    func oldestKept(at now: Date) -> Double {
        let (seconds, attoseconds) = limits.maximumAge.components
        return now.timeIntervalSinceReferenceDate - (Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The answer saved under `key` and no older than the limits allow, or `nil`.
    ///
    /// A save not written yet is found too; an answer removed after the lookup began is not.
    /// Finding one counts as a use, written later with the next batch.
    func entry(for key: String) async -> StoredEntry? {
        let oldest = oldestKept(at: now())
        let (unwritten, database, written) = state.withLock { state -> (StoredEntry?, Task<OpenedDatabase?, Never>, Int) in
            if let entry = state.pending.saves[key]?.entry ?? state.writing[key]?.entry ?? state.recent[key] {
                return (entry, state.database, 0)
            }
            state.readsInFlight += 1
            return (nil, state.database, state.writtenRemovals)
        }
        if let unwritten {
            guard unwritten.savedAt.timeIntervalSinceReferenceDate >= oldest else { return nil }
            used(key)
            return unwritten
        }
        let found = await read(key, in: database)
        let kept = state.withLock { state -> Bool in
            state.readsInFlight -= 1
            defer { state.forgetWrittenRemovals() }
            guard let found, found.savedAt.timeIntervalSinceReferenceDate >= oldest else { return false }
            return !state.removed(found, since: written)
        }
        guard kept, let found else { return nil }
        used(key)
        return found
    }

    private func read(_ key: String, in database: Task<OpenedDatabase?, Never>) async -> StoredEntry? {
        guard let opened = await database.value else { return nil }
        do {
            return try await opened.writer.read { db in
                // Cached: prepared once per connection, not at each lookup.
                let statement = try db.cachedStatement(
                    sql: """
                        SELECT user, savedAt, size, status, contentType, entityTag, lastModified, body
                        FROM answer WHERE key = ?
                        """)
                return try Row.fetchOne(statement, arguments: [key]).map { row in
                    StoredEntry(
                        key: key, user: row[0], savedAt: Date(timeIntervalSinceReferenceDate: row[1]), status: row[3], contentType: row[4],
                        entityTag: row[5], lastModified: row[6], body: row[7], size: row[2])
                }
            }
        } catch {
            failed(error, in: opened, doing: "read a saved answer")
            return nil
        }
    }

    /// Saves `entry` in the background, replacing what was saved under its key.
    ///
    /// An entry over the limits or already too old is not saved. The saves waiting to be written
    /// keep to the limits too, the oldest dropped first, as the store would evict them. `evicted`
    /// is called once the entry is written, with how many others were removed to make room or
    /// for their age; with 0 when a later save replaced or dropped it before it was written; not
    /// at all when it was not saved or its write failed.
    func save(_ entry: StoredEntry, evicted: @escaping @Sendable (Int) -> Void) {
        guard limits.maximumEntries > 0, entry.size <= limits.maximumEntryBytes, entry.size <= limits.maximumTotalBytes,
            entry.savedAt.timeIntervalSinceReferenceDate >= oldestKept(at: now())
        else { return }
        let renewal = renewalInterval
        let added = state.withLock { state -> (gone: [PendingWrites.Save], starts: Bool)? in
            // The backend gave the same answer again, and the file has it from a moment ago:
            // only its `savedAt` is renewed, in memory, and written with a later save. Calls that
            // save the same answer each time write nothing each time.
            if state.pending.saves[entry.key] == nil, let written = state.recent.written(entry.key),
                let current = state.recent[entry.key], current.isSameAnswer(as: entry),
                entry.savedAt.timeIntervalSince(written.savedAt) < renewal
            {
                state.recent.renew(entry.key, savedAt: max(current.savedAt, entry.savedAt))
                return nil
            }
            state.useCount += 1
            let gone = state.pending.add(
                PendingWrites.Save(entry: entry, order: state.useCount, evicted: evicted), maximumEntries: limits.maximumEntries,
                maximumTotalBytes: limits.maximumTotalBytes)
            return (gone, Self.startsWriting(&state))
        }
        guard let (gone, starts) = added else {
            // Renewed in memory: nothing was evicted for it.
            evicted(0)
            return
        }
        // Replaced or dropped before they were written: they evicted nothing.
        for save in gone { save.evicted(0) }
        if starts { startWriting() }
    }

    /// Removes what `removal` covers, pending saves too: a lookup that starts after this returns
    /// finds none of it.
    func remove(_ removal: PendingWrites.Removal) {
        let starts = state.withLock { state in
            state.removalCount += 1
            let count = state.removalCount
            switch removal {
            case .all: state.lastRemovalOfAll = count
            case .key(let key): state.lastRemovalOfKey[key] = count
            case .user(let user): state.lastRemovalOfUser[user] = count
            }
            state.pending.remove(removal, count: count)
            // The batch being written still writes these; lookups no longer find them there,
            // and the removal deletes them with the next batch.
            switch removal {
            case .all: state.writing = [:]
            case .key(let key): state.writing[key] = nil
            case .user(let user): state.writing = state.writing.filter { $0.value.entry.user != user }
            }
            state.recent.remove(removal)
            return Self.startsWriting(&state)
        }
        if starts { startWriting() }
    }

    private func used(_ key: String) {
        let recentEnough = max(1, limits.maximumEntries / 10)
        let starts = state.withLock { state in
            // Among the most recent tenth of saves and uses already: no answer this recent is
            // evicted before the older ones, so the use need not be written.
            if let written = state.recent.written(key), state.useCount - written.order < recentEnough { return false }
            state.useCount += 1
            state.pending.uses[key] = state.useCount
            state.recent.use(key, order: state.useCount)
            return Self.startsWriting(&state)
        }
        if starts { startWriting() }
    }

    /// How long an unchanged answer given again is renewed in memory only: a minute, or a tenth
    /// of the store's maximum age when that is shorter.
    var renewalInterval: TimeInterval {
        let (seconds, attoseconds) = limits.maximumAge.components
        return min(60, (Double(seconds) + Double(attoseconds) / 1e18) / 10)
    }

    /// Whether the caller is to start the writing task: none is running.
    private static func startsWriting(_ state: inout State) -> Bool {
        guard !state.isWriting else { return false }
        state.isWriting = true
        return true
    }

    func startWriting() {
        Task(priority: .utility) { await writePending() }
    }

    /// Writes batches until nothing is pending or a write failed, then wakes those waiting in
    /// ``flush()``.
    private func writePending() async {
        while true {
            let next: (PendingWrites, Task<OpenedDatabase?, Never>, Int)? = state.withLock { state in
                guard !state.pending.isEmpty else { return nil }
                let batch = state.pending.take()
                state.writing = batch.saves
                return (batch, state.database, state.removalCount)
            }
            var failed = false
            if let (batch, database, removalsBefore) = next {
                let evicted = await write(batch, to: database)
                state.withLock { state in
                    state.writing = [:]
                    if let evicted {
                        // What a removal asked for during the write covers is not remembered.
                        for save in batch.saves.values
                        where !state.removed(save.entry, since: removalsBefore) && state.pending.saves[save.entry.key] == nil {
                            state.recent.insert(save.entry, order: save.order)
                        }
                        for key in evicted { state.recent.remove(key) }
                        state.writtenRemovals = max(state.writtenRemovals, batch.lastRemoval)
                        state.forgetWrittenRemovals()
                    } else if !batch.removals.isEmpty {
                        // A removal is never dropped: it waits for the next write, and lookups
                        // go on hiding what it covers.
                        state.pending.removals = batch.removals + state.pending.removals
                        state.pending.lastRemoval = max(state.pending.lastRemoval, batch.lastRemoval)
                    }
                }
                if let evicted {
                    // Each eviction is told once: to the first save written with or after it.
                    let told = state.withLock { state in
                        let all = state.unreportedEvictions + evicted.count + batch.dropped
                        state.unreportedEvictions = batch.saves.isEmpty ? all : 0
                        return all
                    }
                    var first = true
                    for save in batch.saves.values {
                        save.evicted(first ? told : 0)
                        first = false
                    }
                    continue
                }
                failed = true
            }
            let flushes = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                // Something may have been asked for since the last batch was taken.
                guard failed || state.pending.isEmpty else { return nil }
                state.isWriting = false
                defer { state.flushes = [] }
                return state.flushes
            }
            guard let flushes else { continue }
            for flush in flushes { flush.resume() }
            return
        }
    }

    /// Writes `batch`; returns the keys of the answers evicted, or `nil` when the write failed.
    private func write(_ batch: PendingWrites, to database: Task<OpenedDatabase?, Never>) async -> [String]? {
        // No store could be made, not even in memory: nothing is kept, so nothing is to remove.
        guard let opened = await database.value else { return [] }
        let writing = StoreWriting(database: opened, limits: limits, oldest: oldestKept(at: now()))
        do {
            return try await opened.writer.writeWithoutTransaction { db in try writing.apply(batch, in: db) }
        } catch {
            failed(error, in: opened, doing: "write \(batch.saves.count) saved answers")
            return nil
        }
    }

    /// Logs `error`; when it says the file is damaged, moves the file aside and opens a new one
    /// (once, however many callers meet the damage).
    func failed(_ error: any Error, in opened: OpenedDatabase, doing what: String) {
        guard StoreDamage.isDamage(error), opened.path != nil else {
            file.logger?.warning(
                "Backstop's saved answers: could not \(what) in \(opened.path ?? "memory") (\(error)); the call goes on without it")
            return
        }
        let file = file
        state.withLock { state in
            guard state.generation == opened.generation else { return }
            state.generation += 1
            state.recent = RecentAnswers()
            let generation = state.generation
            state.database = Task {
                await withCheckedContinuation { continuation in
                    DispatchQueue.global(qos: .utility).async {
                        try? opened.writer.close()
                        file.moveAside(because: StoreDamage.damaged("\(error)").description)
                        continuation.resume(returning: file.open(generation: generation))
                    }
                }
            }
        }
    }
}
