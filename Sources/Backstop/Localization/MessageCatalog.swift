import Foundation

/// User-facing error messages by key and language, with English as the fallback.
///
/// Keys name what failed: `server.11210005` for a business code, `transport.offline`,
/// `http.404`, `http.5xx`, `role.tokenExpired`, `client.invalidInput`, one key per
/// ``RecoveryCategory`` that goes with its alert title (`category.unauthorized`), and one key
/// per layer (`transport`, `http`, `decoding`, `server`, `client`). `reason.<layer>` and
/// `recovery.<key>` hold `failureReason` and `recoverySuggestion`.
///
/// Backstop ships ``builtIn`` messages in English, Simplified Chinese and Korean for
/// everything but business codes. Apps add their own and override built-in ones, in code
/// or in files, and install the result as ``standard``:
///
/// ```swift
/// if let folder = Bundle.main.url(forResource: "ErrorMessages", withExtension: nil) {
///     MessageCatalog.standard = .builtIn.merging(try MessageCatalog(contentsOf: folder))
/// }
/// ```
///
/// A message is looked up in the locale's language (`zh-Hans-CN`, then `zh-Hans`, `zh-CN`,
/// `zh`), then in English; a key is never shown.
public struct MessageCatalog: Sendable, Hashable {
    // Language tags are stored lowercased with hyphens, the form `languageTags(for:)` makes.
    private var tables: [String: [String: String]]

    /// A catalog from messages by language tag (`en`, `zh-Hans`, `ko`), then by key.
    public init(_ messages: [String: [String: String]] = [:]) {
        tables = [:]
        for (language, entries) in messages {
            tables[Self.normalized(language), default: [:]].merge(entries) { _, new in new }
        }
    }

    /// Reads every `<language>.json` file in `directory`, each a JSON object of key → message.
    ///
    /// - Throws: The file system's error for an unreadable folder or file, or a
    ///   `DecodingError` for a file that is not an object of strings.
    public init(contentsOf directory: URL) throws {
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        try self.init(files: files.filter { $0.pathExtension == "json" })
    }

    private init(files: [URL]) throws {
        let decoder = ResilientJSONDecoder(policy: .strict)
        var messages: [String: [String: String]] = [:]
        for file in files {
            messages[file.deletingPathExtension().lastPathComponent] =
                try decoder.decode([String: String].self, from: Data(contentsOf: file))
        }
        self.init(messages)
    }

    /// The messages Backstop ships, from its package resources.
    ///
    /// Empty if the resources were not shipped with the binary; messages then come from
    /// English text compiled into Backstop, one per layer.
    public static let builtIn: MessageCatalog = {
        guard let bundle = ResourceBundle.backstop else { return MessageCatalog() }
        // SwiftPM flattens the `Catalog` folder on some platforms and keeps it on others.
        let files = ["en", "zh-Hans", "ko"].compactMap { language in
            bundle.url(forResource: language, withExtension: "json", subdirectory: "Catalog")
                ?? bundle.url(forResource: language, withExtension: "json")
        }
        return (try? MessageCatalog(files: files)) ?? MessageCatalog()
    }()

    /// The catalog that ``APIError``'s `LocalizedError` and `NSError` messages use;
    /// ``builtIn`` until the app installs its own.
    public static var standard: MessageCatalog {
        get { installed.withLock { $0 ?? builtIn } }
        set { installed.withLock { $0 = newValue } }
    }

    private static let installed = LockedValue<MessageCatalog?>(nil)

    /// This catalog with the entries of `overrides` added, replacing any with the same key
    /// and language.
    public func merging(_ overrides: MessageCatalog) -> MessageCatalog {
        var merged = self
        for (language, entries) in overrides.tables {
            merged.tables[language, default: [:]].merge(entries) { _, new in new }
        }
        return merged
    }

    /// The message for `key` in the language of `locale`, else in English; `nil` if neither has one.
    public func message(for key: String, locale: Locale) -> String? {
        message(for: key, languages: Self.languageTags(for: locale)) ?? message(for: key, languages: ["en"])
    }

    /// The message for `key` in the first of `languages` that has one.
    func message(for key: String, languages: [String]) -> String? {
        for language in languages {
            if let message = tables[language]?[key] { return message }
        }
        return nil
    }

    /// The tags to try for `locale`, most specific first: `zh-hans-cn`, `zh-hans`, `zh-cn`, `zh`.
    static func languageTags(for locale: Locale) -> [String] {
        guard let language = locale.language.languageCode?.identifier else { return [] }
        // The script is inferred when absent (`zh-TW` is Traditional), so a Taiwanese user
        // never gets the Simplified Chinese table but English instead.
        let script = locale.language.script?.identifier
        let region = locale.region?.identifier
        var tags: [String] = []
        if let script, let region { tags.append("\(language)-\(script)-\(region)") }
        if let script { tags.append("\(language)-\(script)") }
        if let region { tags.append("\(language)-\(region)") }
        tags.append(language)
        var seen = Set<String>()
        return tags.map(normalized).filter { seen.insert($0).inserted }
    }

    /// The locale error messages use when a caller passes none (`LocalizedError`, `NSError`,
    /// ``APIError/userMessage(locale:catalog:)`` and recovery alerts); `nil`, the default,
    /// follows the user's first preferred language.
    ///
    /// An app with a language setting of its own sets it, and so do tests, so they read the
    /// same text on every machine whatever its language.
    public static var locale: Locale? {
        get { pinnedLocale.withLock { $0 } }
        set { pinnedLocale.withLock { $0 = newValue } }
    }

    private static let pinnedLocale = LockedValue<Locale?>(nil)

    /// ``locale``, or the locale of the user's first preferred language.
    static var preferredLocale: Locale {
        locale ?? Locale(identifier: Locale.preferredLanguages.first ?? "en")
    }

    private static func normalized(_ tag: String) -> String {
        tag.replacingOccurrences(of: "_", with: "-").lowercased()
    }
}
