import Backstop
import Foundation
import HTTPTypes
import Logging

#if BadBackend && OpenAPI
    import Hummingbird
#else
    #error(
        "BadBackend needs Backstop's BadBackend and OpenAPI traits: .package(name: \"Backstop\", …, traits: [\"BadBackend\", \"OpenAPI\"])")
#endif

/// One request through the proxy, as its log shows it: credentials redacted.
@available(macOS 14, iOS 17, tvOS 17, *)
struct Exchange {
    let logger: Logger
    let method: String
    /// The upstream URL with its secret query items redacted.
    let shownURL: String
    let headers: HTTPFields
    let started: ContinuousClock.Instant
    var scenario: ProxyScenario?

    /// Logs what became of the request: one `info` line, with its headers, redacted, at `debug`.
    func log(outcome: String) {
        guard logger.logLevel <= .info else { return }
        // Tenths of a millisecond in integers: `String(format:)` cost each request more than
        // the rest of its line.
        let (seconds, attoseconds) = started.duration(to: .now).components
        let tenths = max(seconds, 0) * 10_000 + attoseconds / 100_000_000_000_000
        var metadata: Logger.Metadata = [
            "method": "\(method)", "url": "\(shownURL)", "scenario": "\(scenario?.description ?? "none")",
        ]
        if logger.logLevel <= .debug {
            metadata["headers"] = .dictionary(
                Dictionary(
                    headers.map { field in
                        (
                            field.name.canonicalName,
                            Logger.MetadataValue.string(
                                ProxyResponder.redaction.isSecret(field.name) ? Redaction.placeholder : field.value)
                        )
                    }, uniquingKeysWith: { first, _ in first }))
        }
        logger.info(
            "\(method) \(shownURL): \(outcome) (scenario \(scenario?.description ?? "none"), \(tenths / 10).\(tenths % 10) ms)",
            metadata: metadata)
    }

    /// An answer the proxy makes itself, logged: a JSON body whose `error` says why, so a
    /// client can tell it from the upstream's.
    func made(_ status: HTTPResponse.Status, _ reason: String) -> Response {
        log(outcome: "\(status.code) from the proxy: \(reason)")
        var answer = Answer(status: status, json: .object([("error", .string("backstop proxy: \(reason)"))]))
        if let name = HTTPField.Name("Backstop-Proxy-Error") { answer.headers[name] = "\(status.code)" }
        return answer.response
    }
}
