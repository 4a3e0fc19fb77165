import Foundation

/// A notice to show without interrupting the user, such as a banner above a list: "Showing
/// what was saved at 10:42." Made by ``RecoveryPolicy/notice(for:locale:timeZone:now:)`` for a
/// response a saved answer stood in for, instead of an alert.
public struct RecoveryNotice: Sendable, Hashable {
    /// The sentence, in the user's language.
    public var message: String
    /// When what is shown was saved.
    public var savedAt: Date

    /// A notice; usually made by ``RecoveryPolicy/notice(for:locale:timeZone:now:)`` instead.
    public init(message: String, savedAt: Date) {
        self.message = message
        self.savedAt = savedAt
    }
}
