import BackstopJSON
import Foundation

extension APIError: LocalizedError {
    /// The message to show the user, in their preferred language, from ``MessageCatalog/standard``.
    public var errorDescription: String? { userMessage() }

    /// Why it failed, in general terms, for the user.
    public var failureReason: String? {
        MessageCatalog.standard.message(for: "reason.\(layer.rawValue)", locale: MessageCatalog.preferredLocale)
            ?? Self.fallbackReason[layer]
    }

    /// What the user can do about it, when the catalog suggests something.
    public var recoverySuggestion: String? {
        let catalog = MessageCatalog.standard
        let locale = MessageCatalog.preferredLocale
        for key in genericKeys(for: "recovery.") {
            if let message = catalog.message(for: key, locale: locale) { return message }
        }
        return nil
    }

    /// The message to show the user for this error.
    ///
    /// Chosen in this order, so the most specific text wins:
    /// 1. the catalog's entry for the business code (`server.<code>`) in the user's language;
    /// 2. the server's own message;
    /// 3. the catalog's entry for the business code in English;
    /// 4. the entry for the code's role, the HTTP status, the transport or client reason, then
    ///    what the user can do (`category.<category>` of its ``recoveryCategory``, unless that
    ///    is ``RecoveryCategory/unknown``), then the status's class (`http.4xx`), then the
    ///    layer — each in the user's language, else English;
    /// 5. English text compiled into Backstop for the category, else for the layer.
    ///
    /// The category's entry keeps the message with the title of the error's recovery alert: a
    /// failed refresh is "Sign In Required — Please sign in to continue.", a 504 "Request Timed
    /// Out — The server took too long to respond. Please try again."
    ///
    /// - Parameters:
    ///   - locale: The language to use; `nil` for the user's first preferred language.
    ///   - catalog: Where messages come from; ``MessageCatalog/standard`` unless you say otherwise.
    public func userMessage(locale: Locale? = nil, catalog: MessageCatalog = .standard) -> String {
        message(under: recoveryCategory, locale: locale, catalog: catalog)
    }

    /// ``userMessage(locale:catalog:)`` for an alert whose category is `category`, which the
    /// app's overrides may have chosen instead of ``recoveryCategory``.
    func message(under category: RecoveryCategory, locale: Locale?, catalog: MessageCatalog) -> String {
        let locale = locale ?? MessageCatalog.preferredLocale
        let languages = MessageCatalog.languageTags(for: locale)
        let codeKey = businessCode.map { "server.\($0.stringValue)" }
        if let message = specificMessage(for: codeKey, languages: languages, catalog: catalog) { return message }
        for key in genericKeys(for: "", under: category) {
            if let message = catalog.message(for: key, locale: locale) { return message }
        }
        return category.fallbackMessage ?? Self.fallbackMessage[layer] ?? "Something went wrong. Please try again."
    }

    /// The app's entry for `key` in the first of `languages` that has it, else the server's
    /// own message, else the entry in English: the most specific text, in the best language.
    func specificMessage(for key: String?, languages: [String], catalog: MessageCatalog) -> String? {
        if let key, let message = catalog.message(for: key, languages: languages) { return message }
        // What the server wrote, without the characters that could disguise or reverse it.
        if let message = serverMessage.map(UntrustedText.forUser)?.trimmingCharacters(in: .whitespacesAndNewlines), !message.isEmpty {
            return message
        }
        if let key, let message = catalog.message(for: key, languages: ["en"]) { return message }
        return nil
    }

    /// The business code, whether it came as a business failure or with an HTTP error.
    var businessCode: RawServerCode? {
        switch self {
        case .server(let error): error.code
        case .http(let failure): failure.code
        case .transport, .decoding, .client: nil
        }
    }

    /// Catalog keys other than the business code's, most specific first, each after `prefix`;
    /// with a `category`, its entry comes after the status's, reason's or role's own.
    private func genericKeys(for prefix: String, under category: RecoveryCategory? = nil) -> [String] {
        var keys: [String] = []
        if let role { keys.append("role.\(role.rawValue)") }
        switch self {
        case .transport(let failure): keys.append("transport.\(failure.reason.rawValue)")
        case .http(let failure): keys.append("http.\(failure.status.code)")
        case .client(let failure): keys.append("client.\(failure.reason.name)")
        case .decoding, .server: break
        }
        // `unknown` says less than the layer does ("Couldn't reach the server").
        if let category, category != .unknown { keys.append(category.messageKey) }
        if case .http(let failure) = self { keys.append("http.\(failure.status.code / 100)xx") }
        keys.append(layer.rawValue)
        return keys.map { prefix + $0 }
    }

    // The last resort when the resources are missing: plain English, never a key.
    private static var fallbackMessage: [Layer: String] {
        [
            .transport: "Couldn't reach the server. Please try again.",
            .http: "The server couldn't complete the request. Please try again.",
            .decoding: "The server sent a response the app couldn't read. Please try again later.",
            .server: "Something went wrong. Please try again.",
            .client: "Something went wrong. Please try again.",
        ]
    }

    private static var fallbackReason: [Layer: String] {
        [
            .transport: "The network request failed.",
            .http: "The server returned an error.",
            .decoding: "The server's response was not in the expected format.",
            .server: "The server declined the request.",
            .client: "The request couldn't be sent.",
        ]
    }
}
