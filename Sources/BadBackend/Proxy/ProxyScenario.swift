import BackstopOpenAPI
import Foundation

/// One way ``BackstopProxy`` misbehaves on purpose in front of a real backend: dirt in the
/// answer's bytes, or a fault as Toxiproxy's toxics make them.
///
/// A request names one in its `Backstop-Scenario` header, which the proxy never forwards, as
/// a name and optional parameters: `Backstop-Scenario: latency; ms=800; jitter=200`.
/// ``init(parsing:)`` reads that text and ``description`` writes it. Times are measured on the
/// proxy's clock, from when the request arrived.
///
/// | Name | Parameters | What the client gets |
/// | --- | --- | --- |
/// | `byte-order-mark`, `trailing-commas`, `latin-1`, `nan` | | the answer with that ``ByteDirt`` (JSON answers only); with a document, made where its schema says |
/// | `numbers-as-strings`, `nulls-and-missing-fields`, `unknown-enum-values`, `broken-array-element`, `odd-dates` | | with a document only: that dirt where the schema of the request's operation says each value is |
/// | `sign-in-required`, `maintenance`, `rate-limited`, `unknown-code`, `hostile-message` | | with a document only: that code and its message in the answer's own code field, where the operation's answer has one |
/// | `token-expired` | | with a document only, on operations that declare security: the token-expired code in the answer's code field, or HTTP 401 (not forwarded) where it has none |
/// | `latency` | `ms` (1000), `jitter` (0) | the answer no sooner than `ms` ± `jitter` after the request arrived |
/// | `bandwidth` | `rate` (KB/s, 10) | the answer trickled at that rate, a tenth of a second's worth at a time |
/// | `reset` | `after` (bytes, 0) | the request is forwarded; the connection is reset after `after` bytes of the answer's body (before its head when 0) |
/// | `timeout` | `ms` (0) | nothing: the request is not forwarded, and the connection is closed after `ms` (held until the proxy stops when 0) |
/// | `slow-close` | `ms` (1000) | the whole answer, then the end of the message held back `ms` |
/// | `http-5xx` | `ratio` (1), `status` (503), `retryAfter` | for that share of requests, drawn from the proxy's seed, that status instead of forwarding |
public enum ProxyScenario: Sendable, Hashable, CustomStringConvertible {
    /// The upstream's answer with this dirt in its bytes, when it is JSON; with a document
    /// (``BackstopProxy/Configuration/document``), made where the operation's schema says, as
    /// ``schemaDirt(_:)`` is.
    case dirt(ByteDirt)
    /// Dirt made where the app's OpenAPI document says each value of the operation's answer is,
    /// named as ``BadBackend/ServedDocument/scenarioNames`` names it (``schemaDirtNames``);
    /// only a proxy with a document applies it.
    case schemaDirt(String)
    /// A business code in the code field of the upstream's answer, where the app's OpenAPI
    /// document declares one for the request's operation, named as
    /// ``BadBackend/ServedDocument/scenarioNames`` names it (``codeNames``); `token-expired`
    /// only on operations that declare security, as HTTP 401 where the answer has no code field.
    /// Only a proxy with a document applies it.
    case code(String)
    /// The answer held until `delay` ± a share of `jitter` drawn from the proxy's seed has passed since the request arrived.
    case latency(delay: Duration, jitter: Duration)
    /// The answer's body trickled at this many bytes a second.
    case bandwidth(bytesPerSecond: Int)
    /// The request forwarded, then the client's connection reset after this many bytes of the answer's body.
    case reset(afterBytes: Int)
    /// No answer; the connection closed after this long, or held until the proxy stops when `nil`.
    case timeout(after: Duration?)
    /// The whole answer, then the end of the message held back this long.
    case slowClose(delay: Duration)
    /// For a `ratio` share of requests, `status` (500 to 599) with `Retry-After` when given, and the request not forwarded.
    case serverErrors(ratio: Double, status: Int, retryAfter: Int?)

    /// The scenario names the header takes, in the order the help lists them.
    public static let names: [String] =
        ByteDirt.allCases.map(\.rawValue) + schemaDirtNames + codeNames + [
            "latency", "bandwidth", "reset", "timeout", "slow-close", "http-5xx",
        ]

    /// The dirt only a document makes: `numbers-as-strings`, `nulls-and-missing-fields`,
    /// `unknown-enum-values`, `broken-array-element`, `odd-dates`.
    public static let schemaDirtNames: [String] = DocumentDirt.allCases.map(\.rawValue).filter { ByteDirt(rawValue: $0) == nil }

    /// The codes only a document places, as `serve --openapi` places them: `token-expired`,
    /// `sign-in-required`, `maintenance`, `rate-limited`, `unknown-code`, `hostile-message`.
    public static let codeNames: [String] = DocumentCode.names

    /// The faults random injection picks from: those that end without anyone moving a clock.
    public static let randomFaults: [ProxyScenario] =
        ByteDirt.allCases.map(ProxyScenario.dirt) + [.reset(afterBytes: 0), .serverErrors(ratio: 1, status: 503, retryAfter: nil)]

    /// ``randomFaults`` and, for a proxy with a document, its ``schemaDirt(_:)``.
    public static let randomFaultsWithDocument: [ProxyScenario] = randomFaults + schemaDirtNames.map(ProxyScenario.schemaDirt)

    /// The longest wait any parameter sets: ten minutes.
    public static let maximumMilliseconds = 600_000

    /// The scenario `text` names, as the `Backstop-Scenario` header and `--scenario` give it:
    /// a name, then `; key=value` parameters; those left out take their defaults.
    ///
    /// - Throws: ``Invalid``, naming the name or parameter it cannot read and what it takes.
    public init(parsing text: String) throws(Invalid) {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let name = parts.first?.lowercased() ?? ""
        var parameters: [String: String] = [:]
        for part in parts.dropFirst() where !part.isEmpty {
            guard let equals = part.firstIndex(of: "=") else {
                throw Invalid(description: "'\(part)' in scenario '\(name)' is not key=value")
            }
            parameters[part[..<equals].trimmingCharacters(in: .whitespaces)] = part[part.index(after: equals)...]
                .trimmingCharacters(in: .whitespaces)
        }
        var reader = ParameterReader(scenario: name, parameters: parameters)
        switch name {
        case let dirt where ByteDirt(rawValue: dirt) != nil:
            self = .dirt(ByteDirt(rawValue: dirt) ?? .byteOrderMark)
        case let dirt where Self.schemaDirtNames.contains(dirt):
            self = .schemaDirt(dirt)
        case let code where Self.codeNames.contains(code):
            self = .code(code)
        case "latency":
            let delay = try reader.milliseconds("ms", default: 1000)
            let jitter = try reader.milliseconds("jitter", default: 0)
            self = .latency(delay: delay, jitter: jitter)
        case "bandwidth":
            self = .bandwidth(bytesPerSecond: try reader.integer("rate", default: 10, in: 1...1_000_000) * 1024)
        case "reset":
            self = .reset(afterBytes: try reader.integer("after", default: 0, in: 0...Int(Int32.max)))
        case "timeout":
            let after = try reader.milliseconds("ms", default: 0)
            self = .timeout(after: after == .zero ? nil : after)
        case "slow-close":
            self = .slowClose(delay: try reader.milliseconds("ms", default: 1000))
        case "http-5xx":
            let ratio = try reader.ratio("ratio", default: 1)
            let status = try reader.integer("status", default: 503, in: 500...599)
            let retryAfter = try reader.optionalInteger("retryAfter", in: 0...86_400)
            self = .serverErrors(ratio: ratio, status: status, retryAfter: retryAfter)
        default:
            throw Invalid(description: "no proxy scenario is named '\(name)'; the names are " + Self.names.joined(separator: ", "))
        }
        try reader.finish()
    }

    /// Whether only a proxy with the app's OpenAPI document can apply it: schema dirt and codes.
    public var needsDocument: Bool {
        switch self {
        case .schemaDirt, .code: true
        default: false
        }
    }

    /// The scenario's name: `byte-order-mark`, `latency`, `http-5xx`.
    public var name: String {
        switch self {
        case .dirt(let dirt): dirt.rawValue
        case .schemaDirt(let name), .code(let name): name
        case .latency: "latency"
        case .bandwidth: "bandwidth"
        case .reset: "reset"
        case .timeout: "timeout"
        case .slowClose: "slow-close"
        case .serverErrors: "http-5xx"
        }
    }

    /// The scenario as the header gives it, every parameter spelt out: `latency; ms=800; jitter=200`.
    public var description: String {
        switch self {
        case .dirt, .schemaDirt, .code: name
        case .latency(let delay, let jitter): "latency; ms=\(Self.milliseconds(delay)); jitter=\(Self.milliseconds(jitter))"
        case .bandwidth(let bytesPerSecond): "bandwidth; rate=\(bytesPerSecond / 1024)"
        case .reset(let after): "reset; after=\(after)"
        case .timeout(let after): "timeout; ms=\(after.map(Self.milliseconds) ?? 0)"
        case .slowClose(let delay): "slow-close; ms=\(Self.milliseconds(delay))"
        case .serverErrors(let ratio, let status, let retryAfter):
            "http-5xx; ratio=\(ratio); status=\(status)" + (retryAfter.map { "; retryAfter=\($0)" } ?? "")
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// A scenario text the proxy cannot read, and why.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// Why, in one line that names the part it could not read.
        public let description: String
    }
}
