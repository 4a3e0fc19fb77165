import Foundation

/// A ``SavedAnswerStore`` in memory, the default: its answers last as long as the process.
///
/// Looking up, saving, evicting and removing a user's answers each take one lock for a few
/// dictionary operations, the same with 100,000 answers as with 1,000: the answers are linked
/// from most to least recently used, and indexed by user.
public final class InMemorySavedAnswerStore: SavedAnswerStore {
    /// What the store keeps within.
    public let limits: SavedAnswerLimits
    private let now: @Sendable () -> Date
    private let state = LockedValue(Entries())

    /// A store within `limits`; `now` tells the time answers expire by (tests give a fixed one).
    public init(limits: SavedAnswerLimits = SavedAnswerLimits(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.limits = limits
        self.now = now
    }

    /// How many answers it holds, and their bytes.
    public var load: (answers: Int, bytes: Int) {
        state.withLock { ($0.count, $0.bytes) }
    }

    public func answer(for key: SavedAnswerKey) async -> SavedAnswer? {
        let now = now()
        return state.withLock { entries in
            guard let slot = entries.slot[key] else { return nil }
            let answer = entries.nodes[slot].answer
            guard let answer, !limits.hasExpired(answer, at: now) else {
                entries.remove(at: slot)
                return nil
            }
            entries.touch(slot)
            return answer
        }
    }

    public func save(_ answer: SavedAnswer, evicted: @escaping @Sendable (Int) -> Void) {
        guard limits.admits(answer) else { return }
        let now = now()
        guard !limits.hasExpired(answer, at: now) else { return }
        let count = state.withLock { entries in
            entries.insert(answer)
            var evicted = 0
            while entries.count > limits.maximumEntries || entries.bytes > limits.maximumTotalBytes, entries.evictLeastRecentlyUsed() {
                evicted += 1
            }
            // The least recently used answers past their age go too, not only when looked up.
            while let oldest = entries.leastRecentlyUsed, limits.hasExpired(oldest, at: now), entries.evictLeastRecentlyUsed() {
                evicted += 1
            }
            return evicted
        }
        evicted(count)
    }

    public func remove(_ key: SavedAnswerKey) {
        state.withLock { entries in
            if let slot = entries.slot[key] { entries.remove(at: slot) }
        }
    }

    public func removeAnswers(of user: String) {
        state.withLock { entries in
            for key in entries.byUser[user] ?? [] {
                if let slot = entries.slot[key] { entries.remove(at: slot) }
            }
        }
    }

    public func removeAll() {
        state.withLock { $0 = Entries() }
    }
}

extension InMemorySavedAnswerStore {
    /// The answers, in slots linked from most (`head`) to least (`tail`) recently used; a
    /// removed answer's slot is reused. Guarded by the store's lock.
    private struct Entries: @unchecked Sendable {
        struct Node {
            var answer: SavedAnswer?
            var newer: Int?
            var older: Int?
        }

        var nodes: [Node] = []
        var free: [Int] = []
        var slot: [SavedAnswerKey: Int] = [:]
        var byUser: [String: Set<SavedAnswerKey>] = [:]
        var head: Int?
        var tail: Int?
        var count = 0
        var bytes = 0

        var leastRecentlyUsed: SavedAnswer? { tail.flatMap { nodes[$0].answer } }

        /// Keeps `answer`, replacing the one under its key, as the most recently used.
        mutating func insert(_ answer: SavedAnswer) {
            if let existing = slot[answer.key] {
                bytes -= nodes[existing].answer?.byteCount ?? 0
                nodes[existing].answer = answer
                bytes += answer.byteCount
                touch(existing)
                return
            }
            let index: Int
            if let reused = free.popLast() {
                index = reused
                nodes[index] = Node(answer: answer)
            } else {
                index = nodes.count
                nodes.append(Node(answer: answer))
            }
            slot[answer.key] = index
            if let user = answer.key.user { byUser[user, default: []].insert(answer.key) }
            count += 1
            bytes += answer.byteCount
            link(index)
        }

        /// Makes the answer in `index` the most recently used.
        mutating func touch(_ index: Int) {
            guard head != index else { return }
            unlink(index)
            link(index)
        }

        /// Removes the least recently used answer; `false` when there is none.
        mutating func evictLeastRecentlyUsed() -> Bool {
            guard let tail else { return false }
            remove(at: tail)
            return true
        }

        mutating func remove(at index: Int) {
            guard let answer = nodes[index].answer else { return }
            unlink(index)
            nodes[index] = Node()
            free.append(index)
            slot[answer.key] = nil
            if let user = answer.key.user {
                byUser[user]?.remove(answer.key)
                if byUser[user]?.isEmpty == true { byUser[user] = nil }
            }
            count -= 1
            bytes -= answer.byteCount
        }

        private mutating func link(_ index: Int) {
            nodes[index].newer = nil
            nodes[index].older = head
            if let head { nodes[head].newer = index }
            head = index
            if tail == nil { tail = index }
        }

        private mutating func unlink(_ index: Int) {
            let (newer, older) = (nodes[index].newer, nodes[index].older)
            if let newer { nodes[newer].older = older } else { head = older }
            if let older { nodes[older].newer = newer } else { tail = newer }
            nodes[index].newer = nil
            nodes[index].older = nil
        }
    }
}
