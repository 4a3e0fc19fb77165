import Foundation

/// Turns any ``APIError`` into the alert the user sees: category, title, message and
/// actions, from the app's catalog and overrides.
///
/// Install the app's policy once at start; presenters and reducers use ``standard``:
///
/// ```swift
/// RecoveryPolicy.standard = RecoveryPolicy(
///     catalog: .builtIn.merging(appMessages),
///     overrides: [.category(.offline): RecoveryOverride(actions: [.retry, .openSettings, .cancel])])
/// ```
///
/// An alert is built by these rules:
/// - Category: the most specific override's (see ``RecoveryOverrides``), else
///   ``APIError/recoveryCategory``. Cancelled errors get no alert.
/// - Title: the override's `titleKey`, else `alert.title.<category>`; each in the user's
///   language, else English, else Backstop's English.
/// - Message: the override's `messageKey` (user's language, then the server's message, then
///   English), else ``APIError/userMessage(locale:catalog:)`` with the alert's category, so
///   the message goes with the title (`category.<category>` when nothing more specific has
///   one, such as a failed refresh under "Sign In Required"). A rate-limited alert adds when
///   to try again when the server sent `Retry-After` (`alert.retryAfter.seconds` or `.minutes`).
/// - Actions: the override's, else the category's ``RecoveryCategory/defaultActions``, titled
///   from `alert.action.<id>`. An alert always has at least one action: ``RecoveryAction/dismiss``.
public struct RecoveryPolicy: Sendable {
    /// Where titles, messages and button titles come from.
    public var catalog: MessageCatalog
    /// The app's changes per code, client reason and category.
    public var overrides: RecoveryOverrides

    /// A policy; the catalog defaults to ``MessageCatalog/standard`` as it is now.
    public init(catalog: MessageCatalog = .standard, overrides: RecoveryOverrides = [:]) {
        self.catalog = catalog
        self.overrides = overrides
    }

    /// The policy presenters use unless given another; until the app installs one, the
    /// current ``MessageCatalog/standard`` without overrides.
    public static var standard: RecoveryPolicy {
        get { installed.withLock { $0 } ?? RecoveryPolicy() }
        set { installed.withLock { $0 = newValue } }
    }

    private static let installed = LockedValue<RecoveryPolicy?>(nil)

    /// The category of `error` once the app's overrides apply.
    public func category<General, Module>(for error: APIError<General, Module>) -> RecoveryCategory {
        overrides.first(of: specificKeys(for: error))?.category ?? error.recoveryCategory
    }

    /// The alert for `error` in the language of `locale`, or `nil` when there is nothing
    /// to show: the request was cancelled.
    ///
    /// - Parameter locale: The language to use; `nil` for the user's first preferred language.
    public func alert<General, Module>(for error: APIError<General, Module>, locale: Locale? = nil) -> RecoveryAlert? {
        let specific = overrides.first(of: specificKeys(for: error))
        let category = specific?.category ?? error.recoveryCategory
        guard category != .cancelled else { return nil }
        let general = overrides[.category(category)]
        let locale = locale ?? MessageCatalog.preferredLocale
        let languages = MessageCatalog.languageTags(for: locale)

        let title =
            (specific?.titleKey ?? general?.titleKey).flatMap { text(for: $0, languages) }
            ?? text(for: category.titleKey, languages) ?? category.fallbackTitle
        let message =
            (specific?.messageKey ?? general?.messageKey).flatMap { key in
                error.specificMessage(for: key, languages: languages, catalog: catalog)
            } ?? error.message(under: category, locale: locale, catalog: catalog)
        var retryAfter: Duration?
        switch error {
        case .http(let failure): retryAfter = RetryAfter.duration(in: failure.headerFields)
        case .client(let failure): retryAfter = failure.retryAfter
        case .transport, .decoding, .server: break
        }
        let actions = specific?.actions ?? general?.actions ?? category.defaultActions
        var alert = RecoveryAlert(
            category: category, title: title, message: message,
            actions: (actions.isEmpty ? [.dismiss] : actions).map { $0.titled { text(for: $0, languages) } },
            retryAfter: retryAfter, error: error)
        // A wait the user can act on: rate limited, or a backend that said (or a circuit that
        // knows) when it will be back.
        if category == .rateLimited || category == .unavailable, let retryAfter, let sentence = waitSentence(retryAfter, languages) {
            alert.message += "\n" + sentence
        }
        return alert
    }

    /// The keys of the overrides that can apply to `error`, most specific first.
    private func specificKeys<General, Module>(for error: APIError<General, Module>) -> [RecoveryOverrides.Key] {
        let serverError: ServerError<General, Module>?
        switch error {
        case .server(let error): serverError = error
        case .http(let failure): serverError = failure.code.map { ServerError(code: $0, message: failure.message) }
        case .client(let failure): return [.client(failure.reason)]
        case .transport, .decoding: serverError = nil
        }
        guard let serverError else { return [] }
        switch serverError {
        case .general(let code, _): return [.code(code), .code(serverError.code)]
        case .module(let code, _): return [.code(code), .code(serverError.code)]
        case .unknown(let code, _): return [.code(code)]
        }
    }

    private func text(for key: String, _ languages: [String]) -> String? {
        catalog.message(for: key, languages: languages + ["en"])
    }

    /// "You can try again in 30 seconds." for waits long enough to mention; the role's and
    /// status's messages already ask for a moment's wait.
    private func waitSentence(_ wait: Duration, _ languages: [String]) -> String? {
        // Retry-After counts whole seconds.
        let seconds = Int(wait.components.seconds)
        guard seconds >= 5 else { return nil }
        if seconds < 120 {
            let template = text(for: "alert.retryAfter.seconds", languages) ?? "You can try again in {seconds} seconds."
            return template.replacingOccurrences(of: "{seconds}", with: String(seconds))
        }
        let template = text(for: "alert.retryAfter.minutes", languages) ?? "You can try again in {minutes} minutes."
        return template.replacingOccurrences(of: "{minutes}", with: String((seconds + 59) / 60))
    }
}
