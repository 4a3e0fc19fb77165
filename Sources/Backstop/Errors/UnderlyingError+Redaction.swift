import Foundation

extension UnderlyingError {
    /// This error, or when its text holds a secret an `NSError` of the same domain and code
    /// (a `URLError` for `URLError`s) whose user info has the secrets replaced: strings, URLs
    /// (`NSURLErrorFailingURLErrorKey`) and underlying errors; values of other types are left out.
    func redacting(_ secrets: CallSecrets) -> Self {
        let bridged = error as NSError
        let text = String(describing: error)
        let info = Self.redacted(bridged.userInfo, secrets)
        let describedText = secrets.text(text)
        let unchanged = describedText == text && !Self.changes(bridged.userInfo, info)
        guard !unchanged else { return self }
        var userInfo = info
        // A Swift error's own text, which `NSError` would not carry, kept redacted.
        if userInfo[NSDebugDescriptionErrorKey] == nil, !text.hasPrefix("Error Domain=") {
            userInfo[NSDebugDescriptionErrorKey] = describedText
        }
        if let error = error as? URLError { return UnderlyingError(URLError(error.code, userInfo: userInfo)) }
        return UnderlyingError(NSError(domain: domain, code: code, userInfo: userInfo))
    }

    private static func redacted(_ info: [String: Any], _ secrets: CallSecrets) -> [String: Any] {
        var redacted: [String: Any] = [:]
        for (key, value) in info {
            switch value {
            // A failing URL's string (`NSErrorFailingURLStringKey`) is redacted as a URL.
            case let text as String: redacted[key] = text.contains("://") ? secrets.text(secrets.urlText(text)) : secrets.text(text)
            case let url as URL: redacted[key] = secrets.url(url)
            case let error as NSError: redacted[key] = UnderlyingError(error).redacting(secrets).error as NSError
            case let number as NSNumber: redacted[key] = number
            default: break
            }
        }
        return redacted
    }

    /// Whether redacting left out or changed any value.
    private static func changes(_ info: [String: Any], _ redacted: [String: Any]) -> Bool {
        guard info.count == redacted.count else { return true }
        for (key, value) in info {
            switch (value, redacted[key]) {
            case (let old as String, let new as String): if old != new { return true }
            case (let old as URL, let new as URL): if old != new { return true }
            case (let old as NSError, let new as NSError): if old !== new { return true }
            case (is NSNumber, is NSNumber): continue
            default: return true
            }
        }
        return false
    }
}
