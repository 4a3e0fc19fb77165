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

    private var entries: [String: (entry: StoredEntry, sequence: Int)] = [:]
    /// Keys in the order written, oldest first; one whose entry was written again or removed
    /// since is skipped when reached.
    private var order: [(key: String, sequence: Int)] = []
    private var orderStart = 0
    private var sequence = 0
    private var bytes = 0

    subscript(key: String) -> StoredEntry? { entries[key]?.entry }

    mutating func insert(_ entry: StoredEntry) {
        remove(entry.key)
        guard entry.size <= Self.maximumBytes / 8 else { return }
        while !entries.isEmpty, entries.count >= Self.maximumEntries || bytes + entry.size > Self.maximumBytes {
            let (key, sequence) = order[orderStart]
            orderStart += 1
            if entries[key]?.sequence == sequence { remove(key) }
        }
        if orderStart > 64, orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
        sequence += 1
        entries[entry.key] = (entry, sequence)
        order.append((entry.key, sequence))
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
