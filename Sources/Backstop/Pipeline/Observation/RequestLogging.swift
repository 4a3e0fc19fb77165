import BackstopJSON
import Foundation
import HTTPTypes
import Logging

/// The logging stage of a ``ClientPipeline``: one structured line per call, with method,
/// path, status, duration, attempts and repairs, and for a failure the error's one-line
/// description.
///
/// Text from the network in the line and its metadata (paths, messages, excerpts) has its
/// control and bidirectional characters escaped (`\u{1B}`), so a hostile server cannot clear
/// the terminal that tails the log, forge a second line, or reverse what follows.
///
/// `GET /groups/42 → 200 in 12 ms, 1 attempt, 0 repairs`
///
/// Secrets never reach the log handler: the values of `Authorization`, `Cookie`,
/// `Proxy-Authorization`, the credential of the pipeline's ``AuthSession`` and the configured
/// header fields and query items are replaced by `<redacted>` wherever they appear in the
/// line, including in error descriptions that quote the URL. A call whose line the logger
/// would drop costs nothing here.
public struct RequestLogging: Sendable {
    /// Where the lines go; label `backstop.client` unless given.
    public var logger: Logger
    /// The level of every line, failures included.
    public var level: Logger.Level
    /// Header fields whose values are secret, besides the credentials and cookies.
    public var secretHeaderFields: Set<HTTPField.Name>
    /// Query items whose values are secret, such as `token` or `sig`.
    public var secretQueryItems: Set<String>

    static let alwaysSecret: Set<HTTPField.Name> = [.authorization, .cookie, .proxyAuthorization, .setCookie]
    static let redacted = "<redacted>"

    /// A logging stage.
    ///
    /// - Parameters:
    ///   - logger: Where the lines go.
    ///   - level: The level of every line, failures included.
    ///   - secretHeaderFields: Header fields whose values are secret, besides the credentials and cookies.
    ///   - secretQueryItems: Query items whose values are secret.
    public init(
        logger: Logger = Logger(label: "backstop.client"),
        level: Logger.Level = .info,
        secretHeaderFields: Set<HTTPField.Name> = [],
        secretQueryItems: Set<String> = []
    ) {
        self.logger = logger
        self.level = level
        self.secretHeaderFields = secretHeaderFields
        self.secretQueryItems = secretQueryItems
    }

    /// Whether the logger keeps lines at ``level``.
    var isEnabled: Bool { logger.logLevel <= level }

    /// The secret values in `request` and `known`, longest first.
    func secrets(of request: HTTPRequest?, adding known: [String]) -> [String] {
        var values = known
        guard let request else { return values.filter { !$0.isEmpty }.sorted { $0.count > $1.count } }
        for field in request.headerFields where Self.alwaysSecret.contains(field.name) || secretHeaderFields.contains(field.name) {
            values.append(field.value)
        }
        // Most paths have no query: only a path with one is parsed for secret items.
        if !secretQueryItems.isEmpty, let path = request.path, path.utf8.contains(UInt8(ascii: "?")),
            let items = URLComponents(string: path)?.queryItems
        {
            for item in items where secretQueryItems.contains(item.name) {
                guard let value = item.value else { continue }
                values.append(value)
                // The path quotes the value percent-encoded.
                if let encoded = value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) { values.append(encoded) }
            }
        }
        // Longest first, so a secret that contains another is replaced whole.
        return values.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    func log(_ outcome: RequestOutcome, secrets: [String]) {
        func scrub(_ text: String) -> String {
            secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.redacted) }
        }
        let method = outcome.method.rawValue
        // Paths can carry identifiers a server sent; nothing in a line may act on a terminal.
        let path = UntrustedText.escaped(scrub(outcome.path))
        let (seconds, attoseconds) = outcome.duration.components
        let milliseconds = String(Int((Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded()))
        let attempts = String(outcome.attempts)
        let repairs = String(outcome.repairs)
        var metadata = Logger.Metadata(minimumCapacity: 10)
        metadata["method"] = .string(method)
        metadata["path"] = .string(path)
        metadata["operation"] = .string(UntrustedText.escaped(scrub(outcome.operationID)))
        metadata["duration_ms"] = .string(milliseconds)
        metadata["attempts"] = .string(attempts)
        metadata["repairs"] = .string(repairs)
        var message = "\(method) \(path) → "
        if let status = outcome.status {
            let code = String(status.code)
            metadata["status"] = .string(code)
            message += "\(code) "
        }
        message += "in \(milliseconds) ms, \(attempts) attempt\(outcome.attempts == 1 ? "" : "s"), "
        message += "\(repairs) repair\(outcome.repairs == 1 ? "" : "s")"
        if !outcome.retries.isEmpty { metadata["retries"] = .string(outcome.retries.joined(separator: ",")) }
        if let failure = outcome.failure {
            let description = scrub(failure.description)
            metadata["layer"] = .string(failure.layer)
            metadata["error"] = .string(description)
            message += ": \(description)"
        }
        logger.log(level: level, "\(message)", metadata: metadata)
    }
}
