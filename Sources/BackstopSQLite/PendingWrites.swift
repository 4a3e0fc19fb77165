import Foundation

/// What the store has been asked to write and has not written yet: answers to save, answers
/// used (for least-recently-used eviction), and removals.
///
/// Writes are applied in batches, off the calls' path; a save replaces a pending save of the same
/// key, so a burst of calls for one answer writes it once. The pending saves keep to the store's
/// own limits, the oldest going first, as the store itself would evict them.
struct PendingWrites: Sendable {
    /// A removal asked for before this batch's saves: it is applied first, and the saves it
    /// covers that were made before it were dropped when it was asked for.
    enum Removal: Sendable, Equatable {
        case key(String)
        case user(String)
        case all
    }

    /// An answer to save, when it was saved among the store's saves and uses, and who is told
    /// how many others were evicted to make room for it.
    struct Save: Sendable {
        var entry: StoredEntry
        var order: Int
        var evicted: @Sendable (Int) -> Void
    }

    var saves: [String: Save] = [:]
    /// When each answer was last used, by key, in the order of the store's saves and uses.
    var uses: [String: Int] = [:]
    var removals: [Removal] = []
    /// The count of the last removal in ``removals`` (see `SQLiteAnswerStore.State.removalCount`).
    var lastRemoval = 0
    /// Pending saves dropped for a later one, as the store would have evicted them once written.
    var dropped = 0
    /// What the pending saves add up to.
    private(set) var bytes = 0
    /// The pending saves' keys and orders, oldest first; an entry whose save was replaced or
    /// removed since is skipped when reached.
    private var oldest: [(key: String, order: Int)] = []
    private var oldestStart = 0

    var isEmpty: Bool { saves.isEmpty && uses.isEmpty && removals.isEmpty }

    /// Adds `save`, replacing a pending save of its key, and dropping the oldest pending saves
    /// while the saves would hold more than `limits` allow; returns the saves it replaced or
    /// dropped, whose callers are told now.
    mutating func add(_ save: Save, maximumEntries: Int, maximumTotalBytes: Int) -> [Save] {
        var gone: [Save] = []
        if let replaced = saves.removeValue(forKey: save.entry.key) {
            bytes -= replaced.entry.size
            gone.append(replaced)
        }
        while !saves.isEmpty, saves.count >= maximumEntries || bytes + save.entry.size > maximumTotalBytes {
            let (key, order) = oldest[oldestStart]
            oldestStart += 1
            guard let old = saves[key], old.order == order else { continue }
            saves[key] = nil
            bytes -= old.entry.size
            dropped += 1
            gone.append(old)
        }
        if oldestStart > 64, oldestStart * 2 > oldest.count {
            oldest.removeFirst(oldestStart)
            oldestStart = 0
        }
        saves[save.entry.key] = save
        bytes += save.entry.size
        oldest.append((save.entry.key, save.order))
        return gone
    }

    /// Adds `removal`, numbered `count`, dropping the pending saves and uses it covers.
    mutating func remove(_ removal: Removal, count: Int) {
        lastRemoval = count
        switch removal {
        case .all:
            let lastRemoval = lastRemoval
            self = PendingWrites()
            self.lastRemoval = lastRemoval
            removals = [.all]
        case .key(let key):
            if let save = saves.removeValue(forKey: key) { bytes -= save.entry.size }
            uses[key] = nil
            removals.append(removal)
        case .user(let user):
            for (key, save) in saves where save.entry.user == user {
                saves[key] = nil
                bytes -= save.entry.size
            }
            removals.append(removal)
        }
    }

    /// Everything pending, leaving nothing.
    mutating func take() -> PendingWrites {
        defer { self = PendingWrites() }
        return self
    }
}
