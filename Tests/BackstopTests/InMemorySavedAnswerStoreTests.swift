import Backstop
import Foundation
import Synchronization
import Testing

/// The in-memory store's limits and removals, through the store protocol every store meets.
@Suite("The in-memory saved-answer store")
struct InMemorySavedAnswerStoreTests {
    /// The time answers are saved at and read by, moved by hand.
    final class Now: Sendable {
        private let date = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var value: Date { date.withLock { $0 } }
        func advance(bySeconds seconds: TimeInterval) { date.withLock { $0 += seconds } }
    }

    /// Counts the evictions saves report.
    final class Evictions: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add(_ evicted: Int) { count.withLock { $0 += evicted } }
    }

    static func key(_ path: String, user: String? = nil) -> SavedAnswerKey {
        SavedAnswerKey(method: "GET", url: "https://api.example/\(path)", representation: ["accept: application/json"], user: user)
    }

    static func answer(_ path: String, user: String? = nil, body: String = "{}", at date: Date) -> SavedAnswer {
        SavedAnswer(key: key(path, user: user), status: 200, contentType: "application/json", body: Data(body.utf8), savedAt: date)
    }

    @Test func anAnswerIsFoundUnderItsWholeKeyOnly() async throws {
        let now = Now()
        let store = InMemorySavedAnswerStore(now: { now.value })
        store.save(Self.answer("groups", user: "alice", at: now.value)) { _ in }
        #expect(await store.answer(for: Self.key("groups", user: "alice"))?.body == Data("{}".utf8))
        #expect(await store.answer(for: Self.key("groups", user: "bob")) == nil)
        #expect(await store.answer(for: Self.key("groups")) == nil)
        #expect(await store.answer(for: SavedAnswerKey(method: "GET", url: "https://api.example/groups", user: "alice")) == nil)
        // Representation fields in another order make the same key.
        #expect(
            SavedAnswerKey(method: "GET", url: "u", representation: ["b: 2", "a: 1"])
                == SavedAnswerKey(method: "GET", url: "u", representation: ["a: 1", "b: 2"]))
    }

    /// The stage looks an answer up before each call only while one may carry a validator: the
    /// store counts them as answers are saved, replaced, evicted and removed.
    @Test func itSaysWhetherItMayHoldAnAnswerWithAValidator() async throws {
        let now = Now()
        let store = InMemorySavedAnswerStore(limits: SavedAnswerLimits(maximumEntries: 2), now: { now.value })
        #expect(!store.mayHoldRevalidatableAnswers)
        store.save(Self.answer("plain", at: now.value)) { _ in }
        #expect(!store.mayHoldRevalidatableAnswers)
        var tagged = Self.answer("tagged", at: now.value)
        tagged.entityTag = "\"v1\""
        store.save(tagged) { _ in }
        #expect(store.mayHoldRevalidatableAnswers)
        // Replaced by an answer without one.
        store.save(Self.answer("tagged", at: now.value)) { _ in }
        #expect(!store.mayHoldRevalidatableAnswers)
        var dated = Self.answer("dated", at: now.value)
        dated.lastModified = "Sun, 29 Nov 2026 10:42:00 GMT"
        store.save(dated) { _ in }
        #expect(store.mayHoldRevalidatableAnswers)
        // Evicted by two newer answers.
        store.save(Self.answer("a", at: now.value)) { _ in }
        store.save(Self.answer("b", at: now.value)) { _ in }
        #expect(await store.answer(for: Self.key("dated")) == nil)
        #expect(!store.mayHoldRevalidatableAnswers)
        store.save(tagged) { _ in }
        store.remove(tagged.key)
        #expect(!store.mayHoldRevalidatableAnswers)
        store.save(tagged) { _ in }
        store.removeAll()
        #expect(!store.mayHoldRevalidatableAnswers)
    }

    @Test func keyIDsNeverCollide() {
        let keys = [
            SavedAnswerKey(method: "GET", url: "u", user: nil),
            SavedAnswerKey(method: "GET", url: "u", user: ""),
            SavedAnswerKey(method: "GET", url: "u", user: "-"),
            SavedAnswerKey(method: "GET", url: "u", user: "a\nGET"),
            SavedAnswerKey(method: "GET", url: "u", representation: ["a: 1"]),
            SavedAnswerKey(method: "GET", url: "u\na: 1"),
            SavedAnswerKey(method: "HEAD", url: "u"),
        ]
        #expect(Set(keys.map(\.id)).count == keys.count)
    }

    @Test func theLeastRecentlyUsedAnswerGoesFirst() async throws {
        let now = Now()
        let evictions = Evictions()
        let store = InMemorySavedAnswerStore(limits: SavedAnswerLimits(maximumEntries: 2), now: { now.value })
        store.save(Self.answer("a", at: now.value)) { evictions.add($0) }
        store.save(Self.answer("b", at: now.value)) { evictions.add($0) }
        // Looking `a` up makes `b` the least recently used.
        #expect(await store.answer(for: Self.key("a")) != nil)
        store.save(Self.answer("c", at: now.value)) { evictions.add($0) }
        #expect(await store.answer(for: Self.key("b")) == nil)
        #expect(await store.answer(for: Self.key("a")) != nil)
        #expect(await store.answer(for: Self.key("c")) != nil)
        #expect(evictions.value == 1)
        #expect(store.load.answers == 2)
    }

    @Test func totalBytesAreBounded() async throws {
        let now = Now()
        let size = Self.answer("a", body: String(repeating: "x", count: 100), at: now.value).byteCount
        let store = InMemorySavedAnswerStore(limits: SavedAnswerLimits(maximumTotalBytes: size * 3), now: { now.value })
        for path in ["a", "b", "c", "d", "e"] {
            store.save(Self.answer(path, body: String(repeating: "x", count: 100), at: now.value)) { _ in }
        }
        #expect(store.load.answers == 3)
        #expect(store.load.bytes == size * 3)
        #expect(await store.answer(for: Self.key("a")) == nil)
        #expect(await store.answer(for: Self.key("e")) != nil)
    }

    @Test func replacingAnAnswerKeepsOneAndCountsItsNewSize() async throws {
        let now = Now()
        let store = InMemorySavedAnswerStore(now: { now.value })
        store.save(Self.answer("a", body: "1", at: now.value)) { _ in }
        store.save(Self.answer("a", body: "12345", at: now.value)) { _ in }
        #expect(store.load.answers == 1)
        #expect(store.load.bytes == Self.answer("a", body: "12345", at: now.value).byteCount)
        #expect(await store.answer(for: Self.key("a"))?.body == Data("12345".utf8))
    }

    @Test func anAnswerOverThePerAnswerLimitIsRefused() async throws {
        let now = Now()
        let store = InMemorySavedAnswerStore(limits: SavedAnswerLimits(maximumEntryBytes: 100), now: { now.value })
        store.save(Self.answer("a", body: String(repeating: "x", count: 101), at: now.value)) { _ in }
        #expect(store.load.answers == 0)
    }

    @Test func anAnswerPastTheMaximumAgeIsNeverGivenOutAndIsRemoved() async throws {
        let now = Now()
        let store = InMemorySavedAnswerStore(limits: SavedAnswerLimits(maximumAge: .seconds(60)), now: { now.value })
        store.save(Self.answer("a", at: now.value)) { _ in }
        now.advance(bySeconds: 60)
        #expect(await store.answer(for: Self.key("a")) != nil)
        now.advance(bySeconds: 1)
        #expect(await store.answer(for: Self.key("a")) == nil)
        #expect(store.load.answers == 0)
    }

    @Test func aUsersAnswersAreRemovedAndNoOtherUsers() async throws {
        let now = Now()
        let store = InMemorySavedAnswerStore(now: { now.value })
        for path in ["a", "b", "c"] {
            store.save(Self.answer(path, user: "alice", at: now.value)) { _ in }
            store.save(Self.answer(path, user: "bob", at: now.value)) { _ in }
        }
        store.save(Self.answer("public", at: now.value)) { _ in }
        store.removeAnswers(of: "alice")
        #expect(store.load.answers == 4)
        for path in ["a", "b", "c"] {
            #expect(await store.answer(for: Self.key(path, user: "alice")) == nil)
            #expect(await store.answer(for: Self.key(path, user: "bob")) != nil)
        }
        store.remove(Self.key("public"))
        #expect(await store.answer(for: Self.key("public")) == nil)
        store.removeAll()
        #expect(store.load.answers == 0)
        #expect(store.load.bytes == 0)
    }

    @Test func slotsAreReusedAfterRemovals() async throws {
        let now = Now()
        let store = InMemorySavedAnswerStore(limits: SavedAnswerLimits(maximumEntries: 10), now: { now.value })
        for round in 0..<100 {
            for index in 0..<10 { store.save(Self.answer("\(round)-\(index)", at: now.value)) { _ in } }
        }
        #expect(store.load.answers == 10)
        for index in 0..<10 { #expect(await store.answer(for: Self.key("99-\(index)")) != nil) }
    }
}
