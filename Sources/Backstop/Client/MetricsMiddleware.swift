import Foundation
import HTTPTypes
import Metrics
import OpenAPIRuntime

/// Counts calls, failures, retries and repairs, and times calls, with swift-metrics.
///
/// Metrics, each with the dimensions a dashboard groups by:
/// - `backstop_requests_total` (counter): `operation`, `method`, `status` (`none` without response).
/// - `backstop_request_duration` (timer): `operation`, `method`.
/// - `backstop_failures_total` (counter): `operation`, `layer` and `kind`
///   (`transport.timedOut`, `http.503`, `server.general`, `decoding.payload`, `client.invalidURL`).
/// - `backstop_retries_total` (counter): `operation`, `reason` (`status.503`, `transport.timedOut`).
/// - `backstop_repairs_total` (counter): `operation`; counts each repair lenient decoding made.
/// - `backstop_refreshes_total` (counter): `outcome`; recorded by authentication with
///   ``recordRefresh(outcome:)``.
///
/// `operation` is the endpoint's ``Endpoint/operationID`` (a generated client's operation
/// ID), never the concrete path, so identifiers in paths do not multiply the series.
public struct MetricsMiddleware: ClientMiddleware {
    /// The first part of every metric's label.
    public var prefix: String
    /// Where the metrics go; the bootstrapped `MetricsSystem` unless given.
    public var factory: any MetricsFactory

    public init(prefix: String = "backstop", factory: any MetricsFactory = MetricsSystem.factory) {
        self.prefix = prefix
        self.factory = factory
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await RequestContext.reporting(request, operationID: operationID, next: {
            try await next(request, body, baseURL)
        }, report: { outcome, _ in
            record(outcome)
        })
    }

    /// Counts one token refresh, with `outcome` such as `succeeded` or `failed`.
    public func recordRefresh(outcome: String) {
        Counter(label: "\(prefix)_refreshes_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    private func record(_ outcome: RequestOutcome) {
        let operation = ("operation", outcome.operationID)
        let method = ("method", outcome.method.rawValue)
        Counter(label: "\(prefix)_requests_total",
                dimensions: [operation, method, ("status", outcome.status.map { "\($0.code)" } ?? "none")],
                factory: factory).increment()
        let (seconds, attoseconds) = outcome.duration.components
        Timer(label: "\(prefix)_request_duration", dimensions: [operation, method], factory: factory)
            .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        if let failure = outcome.failure {
            // Two parts of the grouping identifier: the kind, without codes' messages or paths.
            let kind = failure.identifier.split(separator: ".").prefix(2).joined(separator: ".")
            Counter(label: "\(prefix)_failures_total",
                    dimensions: [operation, ("layer", failure.layer), ("kind", kind)], factory: factory).increment()
        }
        for reason in outcome.retries {
            Counter(label: "\(prefix)_retries_total", dimensions: [operation, ("reason", reason)], factory: factory).increment()
        }
        if outcome.repairs > 0 {
            Counter(label: "\(prefix)_repairs_total", dimensions: [operation], factory: factory).increment(by: outcome.repairs)
        }
    }
}
