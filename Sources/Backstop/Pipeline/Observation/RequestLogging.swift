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
/// A call a saved answer stood in for (``SavedAnswers``) says how old it was and what it stood
/// in for: `GET /groups/42 → 200 in 3 ms, 0 attempts, 0 repairs, saved answer 125 s old for
/// client.circuitOpen`, with `saved_answer_age_s` and `saved_answer_for` in its metadata.
///
/// Secrets never reach the log handler: what the pipeline's ``ClientPipeline/redaction``
/// defines as secret (credentials, cookies, the session's credential, the configured header
/// fields and credential-like query items) is replaced by `<redacted>` wherever it appears in
/// the line and its metadata, the error's description included, before any text is cut. A call
/// whose line the logger would drop costs nothing here.
///
/// Lines are `debug` unless you say otherwise, as swift-log's guidelines for libraries ask of a
/// client's normal operation and of the failures it throws: a logger at swift-log's default
/// level (`info`, to standard error when the app bootstraps nothing) drops them. Lower the
/// logger to `debug` to read every call, or give the stage `level: .info` to keep one line per
/// call in production logs.
public struct RequestLogging: Sendable {
    /// Where the lines go; label `backstop.client` unless given.
    public var logger: Logger
    /// The level of every line, failures included; `debug` unless given.
    public var level: Logger.Level

    /// A logging stage.
    ///
    /// - Parameters:
    ///   - logger: Where the lines go.
    ///   - level: The level of every line, failures included.
    public init(logger: Logger = Logger(label: "backstop.client"), level: Logger.Level = .debug) {
        self.logger = logger
        self.level = level
    }

    /// Whether the logger keeps lines at ``level``.
    var isEnabled: Bool { logger.logLevel <= level }

    func log(_ outcome: RequestOutcome, secrets: CallSecrets) {
        let method = outcome.method.rawValue
        // Paths can carry identifiers a server sent; nothing in a line may act on a terminal.
        let path = UntrustedText.escaped(secrets.path(outcome.path))
        let (seconds, attoseconds) = outcome.duration.components
        let milliseconds = String(Int((Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded()))
        let attempts = String(outcome.attempts)
        let repairs = String(outcome.repairs)
        var metadata = Logger.Metadata(minimumCapacity: 10)
        metadata["method"] = .string(method)
        metadata["path"] = .string(path)
        metadata["operation"] = .string(UntrustedText.escaped(secrets.text(outcome.operationID)))
        metadata["duration_ms"] = .string(milliseconds)
        metadata["attempts"] = .string(attempts)
        metadata["repairs"] = .string(repairs)
        let code = outcome.status.map { String($0.code) }
        if let code { metadata["status"] = .string(code) }
        if !outcome.retries.isEmpty { metadata["retries"] = .string(outcome.retries.joined(separator: ",")) }
        let failure = outcome.failure.map { (layer: $0.layer, description: secrets.text($0.description)) }
        if let failure {
            metadata["layer"] = .string(failure.layer)
            metadata["error"] = .string(failure.description)
        }
        var saved = ""
        if let savedAnswer = outcome.savedAnswer {
            let age = String(savedAnswer.age.components.seconds)
            metadata["saved_answer_age_s"] = .string(age)
            saved = ", saved answer \(age) s old"
            if let standsInFor = savedAnswer.standsInFor {
                metadata["saved_answer_for"] = .string(standsInFor)
                saved += " for " + standsInFor
            }
        }
        let line = Self.line(
            method, " ", path, " → ", code ?? "", code == nil ? "" : " ", "in ", milliseconds, " ms, ", attempts,
            outcome.attempts == 1 ? " attempt, " : " attempts, ", repairs, outcome.repairs == 1 ? " repair" : " repairs",
            saved, failure == nil ? "" : ": ", failure?.description ?? "")
        logger.log(level: level, Logger.Message(stringLiteral: line), metadata: metadata)
    }

    /// `pieces` end to end, copied once into a string of their size: appending them one by one
    /// to a `String` cost more than the rest of the line's making.
    private static func line(_ pieces: String...) -> String {
        let count = pieces.reduce(0) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var written = 0
            for piece in pieces {
                var piece = piece
                piece.withUTF8 { bytes in
                    guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return }
                    (target + written).initialize(from: source, count: bytes.count)
                    written += bytes.count
                }
            }
            return written
        }
    }
}
