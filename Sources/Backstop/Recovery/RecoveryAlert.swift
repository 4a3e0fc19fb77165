import Foundation

/// An alert to show for a failure: its title, message and buttons in the user's language,
/// and the error it came from.
///
/// Made by ``RecoveryPolicy/alert(for:locale:)``. Each value has its own ``id``, so an alert
/// raised again after the user closed one is a new alert, not the old one coming back.
/// Values are equal when every field is, the error included (compared as `Hashable`), so
/// reducer tests can assert on them with `==`.
public struct RecoveryAlert: Sendable, Identifiable, Equatable {
    /// New for every alert made, so SwiftUI and reducers tell a fresh alert from the one before.
    public let id: UUID
    /// What kind of failure it is; merged alerts share it.
    public var category: RecoveryCategory
    /// The title, in the user's language.
    public var title: String
    /// What happened and what to do, in the user's language.
    public var message: String
    /// The buttons, most likely choice first; titles are localized.
    public var actions: [RecoveryAction]
    /// How long the server asked clients to wait (its `Retry-After` header), when it said.
    public var retryAfter: Duration?
    /// The error the alert is about, usually an ``APIError``: cast it back to read it.
    public let error: any Error & Hashable & Sendable
    /// The message without the wait a rate-limited alert adds to it.
    var messageWithoutWait: String

    /// An alert; usually made by ``RecoveryPolicy/alert(for:locale:)`` instead.
    public init(
        id: UUID = UUID(), category: RecoveryCategory, title: String, message: String,
        actions: [RecoveryAction], retryAfter: Duration? = nil, error: some Error & Hashable & Sendable
    ) {
        self.id = id
        self.category = category
        self.title = title
        self.message = message
        self.actions = actions
        self.retryAfter = retryAfter
        self.error = error
        messageWithoutWait = message
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.showsSameAs(rhs) && lhs.message == rhs.message && lhs.retryAfter == rhs.retryAfter
            && AnyHashable(lhs.error) == AnyHashable(rhs.error)
    }

    /// Whether the user would see the same alert, but for how long it asks them to wait: same
    /// category, title, message and actions. Alerts raised together that show the same merge,
    /// so requests rate-limited together get one alert although each got its own `Retry-After`.
    func showsSameAs(_ other: Self) -> Bool {
        category == other.category && title == other.title && messageWithoutWait == other.messageWithoutWait
            && actions == other.actions
    }
}
