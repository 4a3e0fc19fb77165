import Backstop
import Foundation

extension SQLiteAnswerStore: SavedAnswerStore {
    /// The answer saved under `key`, from the file or from the saves not written yet.
    public func answer(for key: SavedAnswerKey) async -> SavedAnswer? {
        guard let entry = await entry(for: key.id) else { return nil }
        return SavedAnswer(
            key: key, status: entry.status, contentType: entry.contentType, entityTag: entry.entityTag,
            lastModified: entry.lastModified, body: entry.body, savedAt: entry.savedAt)
    }

    /// Hands `answer` to the store's writer and returns; see ``SQLiteAnswerStore`` for what a
    /// failed write does.
    public func save(_ answer: SavedAnswer, evicted: @escaping @Sendable (Int) -> Void) {
        save(
            StoredEntry(
                key: answer.key.id, user: answer.key.user, savedAt: answer.savedAt, status: answer.status,
                contentType: answer.contentType, entityTag: answer.entityTag, lastModified: answer.lastModified,
                body: answer.body, size: answer.byteCount),
            evicted: evicted)
    }

    public func remove(_ key: SavedAnswerKey) {
        remove(.key(key.id))
    }

    /// Removes `user`'s answers; the rows are deleted (and overwritten) with the next write.
    public func removeAnswers(of user: String) {
        remove(.user(user))
    }

    public func removeAll() {
        remove(.all)
    }
}
