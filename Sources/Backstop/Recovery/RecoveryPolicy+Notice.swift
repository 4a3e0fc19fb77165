import Foundation

extension RecoveryPolicy {
    /// The notice for a response a saved answer stood in for (``APIResponse/savedAnswer``): the
    /// screen shows the saved data and says since when, instead of an alert about the failure.
    ///
    /// "Showing what was saved at 10:42." when it was saved on the day of `now`, else "Showing
    /// what was saved on 2026-11-28 at 10:42.", from the catalog's `notice.savedAnswer.time` and
    /// `notice.savedAnswer.date` (`{time}` and `{date}` filled in); the time on a 24-hour clock
    /// in `timeZone`.
    ///
    /// - Parameters:
    ///   - use: How the saved answer was used.
    ///   - locale: The language to use; `nil` for the user's first preferred language.
    ///   - timeZone: Where the time is read; the device's unless given.
    ///   - now: The time the notice is shown, to tell today from an earlier day.
    public func notice(for use: SavedAnswerUse, locale: Locale? = nil, timeZone: TimeZone = .current, now: Date = Date())
        -> RecoveryNotice
    {
        let languages = MessageCatalog.languageTags(for: locale ?? MessageCatalog.preferredLocale) + ["en"]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let saved = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: use.savedAt)
        let time = Self.twoDigits(saved.hour) + ":" + Self.twoDigits(saved.minute)
        let message: String
        if calendar.isDate(use.savedAt, inSameDayAs: now) {
            let template = catalog.message(for: "notice.savedAnswer.time", languages: languages) ?? "Showing what was saved at {time}."
            message = template.replacingOccurrences(of: "{time}", with: time)
        } else {
            let date = String(saved.year ?? 0) + "-" + Self.twoDigits(saved.month) + "-" + Self.twoDigits(saved.day)
            let template =
                catalog.message(for: "notice.savedAnswer.date", languages: languages) ?? "Showing what was saved on {date} at {time}."
            message = template.replacingOccurrences(of: "{date}", with: date).replacingOccurrences(of: "{time}", with: time)
        }
        return RecoveryNotice(message: message, savedAt: use.savedAt)
    }

    private static func twoDigits(_ value: Int?) -> String {
        let value = value ?? 0
        return value < 10 ? "0" + String(value) : String(value)
    }
}
