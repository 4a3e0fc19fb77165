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

    /// Whether it holds an answer with a validator: counted as answers come and go.
    public var mayHoldRevalidatableAnswers: Bool {
        state.withLock { $0.revalidatable > 0 }
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
        // Counted once here and kept in its node: each call that saves pays for this method.
        let bytes = answer.byteCount
        guard limits.admits(bytes: bytes) else { return }
        let now = now()
        guard !limits.hasExpired(answer, at: now) else { return }
        let count = state.withLock { entries in
            entries.insert(answer, bytes: bytes)
            var evicted = 0
            while entries.count > limits.maximumEntries || entries.bytes > limits.maximumTotalBytes, entries.evictLeastRecentlyUsed() {
                evicted += 1
            }
            // The least recently used answers past their age go too, not only when looked up.
            while let savedAt = entries.leastRecentlySavedAt, limits.hasExpired(savedAt: savedAt, at: now), entries.evictLeastRecentlyUsed()
            {
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
            /// The answer's ``SavedAnswer/byteCount``, counted once when it was saved.
            var bytes = 0
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
        /// How many of the answers carry a validator.
        var revalidatable = 0

        /// When the least recently used answer was saved: read in place, not copied out.
        var leastRecentlySavedAt: Date? { tail.flatMap { nodes[$0].answer?.savedAt } }

        /// Keeps `answer`, replacing the one under its key, as the most recently used.
        mutating func insert(_ answer: SavedAnswer, bytes answerBytes: Int) {
            if let existing = slot[answer.key] {
                if nodes[existing].answer?.isRevalidatable == true { revalidatable -= 1 }
                bytes += answerBytes - nodes[existing].bytes
                nodes[existing].answer = answer
                nodes[existing].bytes = answerBytes
                if answer.isRevalidatable { revalidatable += 1 }
                touch(existing)
                return
            }
            let index: Int
            if let reused = free.popLast() {
                index = reused
                nodes[index] = Node(answer: answer, bytes: answerBytes)
            } else {
                index = nodes.count
                nodes.append(Node(answer: answer, bytes: answerBytes))
            }
            slot[answer.key] = index
            if let user = answer.key.user { byUser[user, default: []].insert(answer.key) }
            count += 1
            bytes += answerBytes
            if answer.isRevalidatable { revalidatable += 1 }
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
            let answerBytes = nodes[index].bytes
            unlink(index)
            nodes[index] = Node()
            free.append(index)
            slot[answer.key] = nil
            if let user = answer.key.user {
                byUser[user]?.remove(answer.key)
                if byUser[user]?.isEmpty == true { byUser[user] = nil }
            }
            count -= 1
            bytes -= answerBytes
            if answer.isRevalidatable { revalidatable -= 1 }
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
