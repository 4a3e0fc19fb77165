/// A button of a recovery alert: what it does, its role and its title.
///
/// Backstop declares ``retry``, ``signIn``, ``cancel``, ``dismiss`` and ``confirm``. Apps
/// declare their own the same way, with an English title for when the catalog has none,
/// and put `alert.action.<id>` entries in their catalog for other languages:
///
/// ```swift
/// extension RecoveryAction {
///     static let openSettings = RecoveryAction("openSettings", title: "Open Settings")
/// }
/// ```
///
/// What choosing it does is decided by its ``id``: retry re-runs what failed, sign-in and
/// app-defined actions publish a ``RecoveryRoute``, cancel, dismiss and confirm close the alert.
public struct RecoveryAction: Sendable, Hashable, Identifiable {
    /// An action's stable name, compared by value; also its catalog key, `alert.action.<id>`.
    public struct ID: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        /// Send the failed request again.
        public static let retry: ID = "retry"
        /// Show the app's sign-in screen.
        public static let signIn: ID = "signIn"
        /// Give up on what the user was doing.
        public static let cancel: ID = "cancel"
        /// Close the alert and change nothing.
        public static let dismiss: ID = "dismiss"
        /// Go ahead, after the alert asked.
        public static let confirm: ID = "confirm"

        public var description: String { rawValue }
    }

    /// How a button is drawn, as SwiftUI's `ButtonRole` and TCA's `ButtonStateRole` know it;
    /// a `nil` role is a plain button.
    public enum Role: String, Sendable, Hashable, CaseIterable {
        /// Closes the alert without doing anything; there is at most one.
        case cancel
        /// Loses data or cannot be undone.
        case destructive
    }

    /// What choosing the action does, and its catalog key.
    public let id: ID
    /// How the button is drawn; `nil` for a plain button.
    public var role: Role?
    /// The title: in the user's language once the action is part of a ``RecoveryAlert``,
    /// the English fallback before.
    public var title: String

    /// An action; `title` is the English text used when the catalog has no `alert.action.<id>`.
    public init(_ id: ID, role: Role? = nil, title: String) {
        self.id = id
        self.role = role
        self.title = title
    }

    /// Re-runs the requests that failed.
    public static let retry = RecoveryAction(.retry, title: "Try Again")
    /// Asks the app to show its sign-in screen.
    public static let signIn = RecoveryAction(.signIn, title: "Sign In")
    /// Gives up on what failed.
    public static let cancel = RecoveryAction(.cancel, role: .cancel, title: "Cancel")
    /// Acknowledges an alert that offers nothing else.
    public static let dismiss = RecoveryAction(.dismiss, role: .cancel, title: "OK")
    /// Agrees to what the alert says, for apps' own alerts that ask.
    public static let confirm = RecoveryAction(.confirm, title: "Confirm")

    /// The catalog key of the title: `alert.action.<id>`.
    var titleKey: String { "alert.action.\(id.rawValue)" }

    /// This action titled by the catalog text `lookup` finds for its key, else by its own title.
    func titled(by lookup: (String) -> String?) -> RecoveryAction {
        var action = self
        action.title = lookup(titleKey) ?? title
        return action
    }
}
