/// What an app changes about the alert for one code, client reason or category.
///
/// Every field is optional: what an override leaves out comes from the override of the
/// category, then from Backstop's defaults. Titles and messages are catalog keys, so they
/// are shown in the user's language with the catalog's fallbacks, and never as keys: a
/// key no language has is ignored.
public struct RecoveryOverride: Sendable, Hashable {
    /// Another category for a code or client reason: its title, actions and category
    /// override then apply. ``RecoveryCategory/cancelled`` silences the code. Ignored in
    /// category overrides.
    public var category: RecoveryCategory?
    /// The catalog key of the title.
    public var titleKey: String?
    /// The catalog key of the message. Like ``APIError/userMessage(locale:catalog:)``, the
    /// entry in the user's language wins, then the server's own message, then the English entry.
    public var messageKey: String?
    /// The buttons, most likely choice first.
    public var actions: [RecoveryAction]?

    /// An override; what it leaves `nil` comes from the category's override, then Backstop's defaults.
    ///
    /// - Parameters:
    ///   - category: Another category for a code or client reason; ignored in category overrides.
    ///   - titleKey: The catalog key of the title.
    ///   - messageKey: The catalog key of the message.
    ///   - actions: The buttons, most likely choice first.
    public init(
        category: RecoveryCategory? = nil, titleKey: String? = nil, messageKey: String? = nil,
        actions: [RecoveryAction]? = nil
    ) {
        self.category = category
        self.titleKey = titleKey
        self.messageKey = messageKey
        self.actions = actions
    }
}
