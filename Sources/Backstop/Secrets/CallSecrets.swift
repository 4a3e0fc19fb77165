import BackstopJSON
import Foundation
import HTTPTypes

/// The secret values of one call by its pipeline's ``Redaction``, and the text that has them
/// replaced: what logging, errors, spans and drift samples write.
struct CallSecrets: Sendable {
    /// The shortest value searched for in free text.
    static let minimumSearchedLength = 4

    /// What the request's path is redacted by, for its query items.
    let redaction: Redaction
    /// Every form of every secret value long enough to search for, longest first, so a secret
    /// that contains another is replaced whole.
    let values: [String]

    /// The secrets of `request` (its secret header fields and query items) and `known` values,
    /// such as the credential the session applied.
    init(_ redaction: Redaction, request: HTTPRequest?, known: [String] = []) {
        self.redaction = redaction
        var found: [String] = []
        // Known values are mostly header values authentication set: their parts are secret too.
        for value in known { Self.addForms(ofHeaderValue: value, to: &found) }
        if let request {
            for field in request.headerFields where redaction.isSecret(field.name) {
                Self.addForms(ofHeaderValue: field.value, to: &found)
            }
            if let path = request.path { Self.addQueryValues(of: path, by: redaction, to: &found) }
        }
        // Most calls carry no secret at all: nothing to filter, deduplicate or sort.
        values = found.isEmpty ? [] : Array(Set(found.filter { $0.count >= Self.minimumSearchedLength })).sorted { $0.count > $1.count }
    }

    /// Whether there is anything to search for.
    var isEmpty: Bool { values.isEmpty }

    /// `text` with every secret replaced by ``Redaction/placeholder``.
    func text(_ text: String) -> String {
        guard !values.isEmpty else { return text }
        return values.reduce(text) { $0.replacingOccurrences(of: $1, with: Redaction.placeholder) }
    }

    /// `text`, which may have been cut (ending in `…`), with every secret replaced, and a start
    /// of a secret left at the cut replaced too.
    func excerpt(_ excerpt: String) -> String {
        var text = self.text(excerpt)
        guard text.hasSuffix("…") else { return text }
        text.removeLast()
        for value in values {
            // The longest start of `value` that ends the text.
            var length = min(value.count, text.count)
            while length >= Self.minimumSearchedLength {
                if text.hasSuffix(value.prefix(length)) {
                    text.removeLast(length)
                    text += Redaction.placeholder
                    return text + "…"
                }
                length -= 1
            }
        }
        return text + "…"
    }

    /// `data` with every secret's UTF-8 bytes replaced; bytes that are not UTF-8 are kept.
    func data(_ data: Data) -> Data {
        guard !values.isEmpty, !data.isEmpty else { return data }
        var data = data
        let placeholder = Data(Redaction.placeholder.utf8)
        for value in values {
            let bytes = Data(value.utf8)
            var start = data.startIndex
            while let range = data.range(of: bytes, in: start..<data.endIndex) {
                data.replaceSubrange(range, with: placeholder)
                start = range.lowerBound + placeholder.count
            }
        }
        return data
    }

    /// `path` (with its query) with the values of secret query items replaced, then its other secrets.
    func path(_ path: String) -> String {
        text(Self.redactingQuery(of: path, by: redaction, placeholder: Redaction.placeholder))
    }

    /// `url` with the values of its secret query items and its other secrets replaced by the
    /// percent-encoded placeholder; `nil` only if the result makes no URL.
    func url(_ url: URL) -> URL? {
        URL(string: urlText(url.absoluteString))
    }

    /// A URL's text, redacted as ``url(_:)`` redacts a URL.
    func urlText(_ url: String) -> String {
        let placeholder = "%3Credacted%3E"
        let text = Self.redactingQuery(of: url, by: redaction, placeholder: placeholder)
        return values.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
    }

    /// `repairs` with the secrets of what each found replaced, for samples kept beyond the call.
    func repairs(_ repairs: [Repair]) -> [Repair] {
        guard !values.isEmpty else { return repairs }
        return repairs.map { repair in
            var repair = repair
            let excerpt = repair.found.excerpt
            let redacted = self.excerpt(excerpt)
            if redacted != excerpt { repair.found.excerpt = redacted }
            return repair
        }
    }

    // MARK: - Finding the values

    private static func addForms(of value: String, to found: inout [String]) {
        guard !value.isEmpty else { return }
        found.append(value)
        if let decoded = value.removingPercentEncoding, decoded != value { found.append(decoded) }
        if let encoded = value.addingPercentEncoding(withAllowedCharacters: queryValueAllowed), encoded != value {
            found.append(encoded)
            found.append(encoded.replacingOccurrences(of: "%20", with: "+"))
        }
        if value.contains("/") { found.append(value.replacingOccurrences(of: "/", with: "\\/")) }
    }

    /// A header value, and the parts a server may echo alone: the credential after its scheme
    /// (`Bearer <token>`) and each cookie's value.
    private static func addForms(ofHeaderValue value: String, to found: inout [String]) {
        addForms(of: value, to: &found)
        if let space = value.firstIndex(of: " ") {
            addForms(of: String(value[value.index(after: space)...]).trimmingCharacters(in: .whitespaces), to: &found)
        }
        for cookie in value.split(separator: ";") {
            guard let equals = cookie.firstIndex(of: "=") else { continue }
            addForms(of: String(cookie[cookie.index(after: equals)...]).trimmingCharacters(in: .whitespaces), to: &found)
        }
    }

    private static func addQueryValues(of path: String, by redaction: Redaction, to found: inout [String]) {
        guard let question = queryStart(of: path) else { return }
        for item in path[path.index(after: question)...].split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, redaction.isSecretQueryItem(decoded(parts[0])) else { continue }
            addForms(of: String(parts[1]), to: &found)
            addForms(of: decoded(parts[1]), to: &found)
        }
    }

    /// Where the query of `path` starts (its `?`), found by byte: every call's path is searched
    /// for it, and a search by `Character` costs each call thousands of instructions.
    private static func queryStart(of path: String) -> String.Index? {
        path.utf8.firstIndex(of: UInt8(ascii: "?"))
    }

    /// A query item's name or value as the server reads it: `+` is a space, escapes decoded.
    private static func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// `path` with the value of each secret query item replaced by `placeholder`, the rest as it was.
    private static func redactingQuery(of path: String, by redaction: Redaction, placeholder: String) -> String {
        guard let question = queryStart(of: path) else { return path }
        let queryEnd = path[question...].firstIndex(of: "#") ?? path.endIndex
        let items = path[path.index(after: question)..<queryEnd].split(separator: "&", omittingEmptySubsequences: false).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, redaction.isSecretQueryItem(decoded(parts[0])) else { return String(item) }
            return parts[0] + "=" + placeholder
        }
        return path[...question] + items.joined(separator: "&") + path[queryEnd...]
    }

    /// What a query value holds as written: `+`, `&`, `=` and `#` are escaped.
    private static let queryValueAllowed: CharacterSet = {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "+&=#")
        return allowed
    }()
}
