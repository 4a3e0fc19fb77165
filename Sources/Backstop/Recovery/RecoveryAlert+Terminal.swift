extension RecoveryAlert {
    /// The alert as plain text for a terminal: title, message, then numbered actions with
    /// their roles.
    ///
    /// ```
    /// You're Offline
    /// You're offline. Check your internet connection and try again.
    ///   1. Try Again
    ///   2. Cancel (cancel)
    /// ```
    public var terminalText: String {
        var lines = [title, message]
        for (number, action) in zip(1..., actions) {
            lines.append("  \(number). \(action.title)" + (action.role.map { " (\($0.rawValue))" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }
}
