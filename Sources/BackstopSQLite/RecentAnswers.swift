import Foundation

/// The answers written last, kept in memory as well, so that calls asking again and again for
/// the same few answers (each GET looks its answer up for its validators) find them without
/// reading the file.
///
/// Bounded (256 answers, 1 MiB, none over 128 KiB), the oldest written going first. It holds
/// only what the file holds: an answer the file evicts or a removal covers leaves it too.
struct RecentAnswers: Sendable {
    static let maximumEntries = 256
    static let maximumBytes = 1 << 20

    /// Each answer, the `savedAt` the file holds for it (a renewal may not be written yet), and
    /// the order of its last save or use written.
    private var entries: [String: (entry: StoredEntry, sequence: Int, writtenSavedAt: Date, order: Int)] = [:]
    /// Keys in the order written, oldest first; one whose entry was written again or removed
    /// since is skipped when reached.
    private var oldest: [(key: String, sequence: Int)] = []
    private var oldestStart = 0
    private var sequence = 0
    private var bytes = 0

    subscript(key: String) -> StoredEntry? { entries[key]?.entry }

    /// When the file last had `key`'s answer written, and the order of its last save or use.
    func written(_ key: String) -> (savedAt: Date, order: Int)? {
        entries[key].map { ($0.writtenSavedAt, $0.order) }
    }

    /// `key`'s answer was given again by the backend, unchanged, at `savedAt`: remembered here,
    /// and written to the file later.
    mutating func renew(_ key: String, savedAt: Date) {
        entries[key]?.entry.savedAt = savedAt
    }

    /// `key`'s answer was used, in the store's order `order`.
    mutating func use(_ key: String, order: Int) {
        entries[key]?.order = order
    }

    mutating func insert(_ entry: StoredEntry, order: Int) {
        remove(entry.key)
        guard entry.size <= Self.maximumBytes / 8 else { return }
        while !entries.isEmpty, entries.count >= Self.maximumEntries || bytes + entry.size > Self.maximumBytes {
            let (key, sequence) = oldest[oldestStart]
            oldestStart += 1
            if entries[key]?.sequence == sequence { remove(key) }
        }
        if oldestStart > 64, oldestStart * 2 > oldest.count {
            oldest.removeFirst(oldestStart)
            oldestStart = 0
        }
        sequence += 1
        entries[entry.key] = (entry, sequence, entry.savedAt, order)
        oldest.append((entry.key, sequence))
        bytes += entry.size
    }

    mutating func remove(_ key: String) {
        guard let old = entries.removeValue(forKey: key) else { return }
        bytes -= old.entry.size
    }

    mutating func remove(_ removal: PendingWrites.Removal) {
        switch removal {
        case .all: self = RecentAnswers()
        case .key(let key): remove(key)
        case .user(let user):
            for (key, value) in entries where value.entry.user == user { remove(key) }
        }
    }
}
