import Foundation

/// What the store has been asked to write and has not written yet: answers to save, answers
/// used (for least-recently-used eviction), and removals.
///
/// Writes are applied in batches, off the calls' path; a save replaces a pending save of the same
/// key, so a burst of calls for one answer writes it once.
struct PendingWrites: Sendable {
    /// A removal asked for before this batch's saves: it is applied first, and the saves it
    /// covers that were made before it were dropped when it was asked for.
    enum Removal: Sendable, Equatable {
        case key(String)
        case user(String)
        case all
    }

    /// An answer to save, and who is told how many others were evicted to make room for it.
    struct Save: Sendable {
        var entry: StoredEntry
        var evicted: @Sendable (Int) -> Void
    }

    var saves: [String: Save] = [:]
    /// When each answer was last used, by key.
    var uses: [String: Double] = [:]
    var removals: [Removal] = []
    /// The count of the last removal in ``removals`` (see `SQLiteAnswerStore.State.removalCount`).
    var lastRemoval = 0
    /// What the pending saves add up to.
    private(set) var bytes = 0

    var isEmpty: Bool { saves.isEmpty && uses.isEmpty && removals.isEmpty }

    /// Adds `save`, unless the pending saves would then add up to more than `limit`; returns
    /// whether it was added, and the pending save of the same key it replaced.
    mutating func add(_ save: Save, limit: Int) -> (added: Bool, replaced: Save?) {
        let replaced = saves[save.entry.key]
        let replacedSize = replaced?.entry.size ?? 0
        guard bytes - replacedSize + save.entry.size <= limit else { return (false, nil) }
        saves[save.entry.key] = save
        bytes += save.entry.size - replacedSize
        return (true, replaced)
    }

    /// Adds `removal`, numbered `count`, dropping the pending saves and uses it covers.
    mutating func remove(_ removal: Removal, count: Int) {
        lastRemoval = count
        switch removal {
        case .all:
            saves = [:]
            uses = [:]
            bytes = 0
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
