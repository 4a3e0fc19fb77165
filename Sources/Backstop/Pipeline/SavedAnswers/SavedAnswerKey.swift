import Foundation

/// What a saved answer is saved and looked up under: the method, the absolute URL, the request
/// header fields that select the representation, and whose answer it is.
///
/// Persistable: every part is a string, so a store on disk finds the last user's answers when
/// the app is launched again, offline. It holds no secret: the values of the URL's secret query
/// items (``Redaction/queryItems``) are replaced by ``Redaction/placeholder``, the representation
/// fields never include `Authorization`, cookies or the pipeline's secret header fields, and
/// ``user`` is the name ``Authenticator/savedAnswerUser(of:)`` gives, never the credential.
public struct SavedAnswerKey: Hashable, Sendable, Codable {
    /// The request's method, such as `GET`.
    public let method: String
    /// The absolute URL the request was sent to, scheme, host, port, path and query, with the
    /// values of its secret query items replaced.
    public let url: String
    /// The header fields that select the representation, each `name: value` with the name in
    /// lowercase, sorted; `Accept` and `Accept-Language` and those the app names
    /// (``SavedAnswers/representationFields``).
    public let representation: [String]
    /// Whose answer it is: the user of the session whose credential the call carried, as
    /// ``Authenticator/savedAnswerUser(of:)`` names it; `nil` for a call that carried no credential.
    public let user: String?

    /// A key; `representation` is sorted here, so fields in any order make the same key.
    public init(method: String, url: String, representation: [String] = [], user: String? = nil) {
        self.method = method
        self.url = url
        // Sorted, so the order the app set its fields in never makes two keys; one field is.
        self.representation = representation.count < 2 ? representation : representation.sorted()
        self.user = user
    }

    /// One string that names this key and no other, for a store's primary key: each part as
    /// its length in bytes, a colon and its text (`-` for no user), so no text a part holds can
    /// make it read as another key's.
    public var id: String {
        var id = user.map(Self.counted) ?? "-"
        id += Self.counted(method) + Self.counted(url)
        for field in representation { id += Self.counted(field) }
        return id
    }

    private static func counted(_ text: String) -> String { String(text.utf8.count) + ":" + text }

    /// Hashes the method, the URL and the user, not the representation: a URL has few
    /// representations, and each call that saves hashes its key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(user)
    }

    /// How many bytes the key's text takes, counted against a store's limits.
    public var byteCount: Int {
        method.utf8.count + url.utf8.count + (user?.utf8.count ?? 0) + representation.reduce(0) { $0 + $1.utf8.count }
    }
}
