import Foundation

/// One answer a call ended with as a success, as a ``SavedAnswerStore`` keeps it: the body as
/// received, before any repair, so that the repairs of the call that answers it from the store
/// are made and reported again, and the response fields the call needs to read it again and
/// revalidate it.
///
/// Holds no secret: of the response's header fields, only `Content-Type`, `ETag` and
/// `Last-Modified` are kept (never `Set-Cookie`); see ``SavedAnswerKey`` for the key.
public struct SavedAnswer: Hashable, Sendable, Codable {
    /// What it is saved under.
    public var key: SavedAnswerKey
    /// The response's status code, 200 to 299.
    public var status: Int
    /// The response's `Content-Type`, if it had one.
    public var contentType: String?
    /// The response's `ETag`, sent back as `If-None-Match` to revalidate it.
    public var entityTag: String?
    /// The response's `Last-Modified`, sent back as `If-Modified-Since` to revalidate it.
    public var lastModified: String?
    /// The body as received.
    public var body: Data
    /// When the backend last gave this answer: when it was received, or when a `304 Not
    /// Modified` renewed it.
    public var savedAt: Date

    /// An answer to save.
    public init(
        key: SavedAnswerKey, status: Int, contentType: String? = nil, entityTag: String? = nil, lastModified: String? = nil,
        body: Data, savedAt: Date
    ) {
        self.key = key
        self.status = status
        self.contentType = contentType
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.body = body
        self.savedAt = savedAt
    }

    /// How many bytes it counts for against ``SavedAnswerLimits``: its body, its key's text and
    /// its header fields' values.
    public var byteCount: Int {
        body.count + key.byteCount + (contentType?.utf8.count ?? 0) + (entityTag?.utf8.count ?? 0) + (lastModified?.utf8.count ?? 0)
    }

    /// Whether it can be revalidated: it has an `ETag` or a `Last-Modified`.
    public var isRevalidatable: Bool { entityTag != nil || lastModified != nil }
}
