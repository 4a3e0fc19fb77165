import Foundation

/// One saved answer as a row of the store: what it is found by, whose it is, when it was saved,
/// and the answer's own parts.
///
/// Nothing here is a secret: the saved-answer stage's keys hold no credential, cookie or
/// redacted query item, and its answers keep, of the response's header fields, only
/// `Content-Type`, `ETag` and `Last-Modified`.
struct StoredEntry: Sendable, Equatable {
    /// The saved-answer key in its stable text form, unique in the store.
    var key: String
    /// Whose answer it is, for a per-user purge; `nil` for an answer no credential selected.
    var user: String?
    /// When the answer was saved.
    var savedAt: Date
    var status: Int
    var contentType: String?
    var entityTag: String?
    var lastModified: String?
    var body: Data
    /// What the entry counts for against the store's byte limits.
    var size: Int

    /// Whether `other` is the same answer under the same key, whenever each was saved.
    func isSameAnswer(as other: StoredEntry) -> Bool {
        key == other.key && user == other.user && status == other.status && contentType == other.contentType
            && entityTag == other.entityTag && lastModified == other.lastModified && body == other.body
    }
}
