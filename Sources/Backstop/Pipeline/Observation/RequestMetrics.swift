import Foundation
import HTTPTypes
import Metrics

/// The metrics stage of a ``ClientPipeline``: counts calls, failures, retries, refreshes and
/// repairs, and times calls, with swift-metrics.
///
/// Metrics, each with the dimensions a dashboard groups by:
/// - `backstop_requests_total` (counter): `operation`, `method`, `status` (`none` without response).
/// - `backstop_request_duration` (timer): `operation`, `method`.
/// - `backstop_failures_total` (counter): `operation`, `layer` and `kind`
///   (`transport.timedOut`, `http.503`, `server.general`, `decoding.payload`, `client.invalidURL`).
/// - `backstop_retries_total` (counter): `operation`, `reason` (`status.503`, `transport.timedOut`).
/// - `backstop_repairs_total` (counter): `operation`; counts each repair lenient decoding made.
/// - `backstop_refreshes_total` (counter): `outcome` (`succeeded`, `failed`, `interrupted`,
///   `tooMany`), for each token refresh a call of this pipeline started.
/// - `backstop_saved_answers_total` (counter): `operation`, `outcome` (`saved`, `answered`,
///   `revalidated`, `evicted`): answers the ``SavedAnswers`` stage saved, answered in place of a
///   failure, renewed after a `304`, and removed from the store to make room or for their age.
///
/// `operation` is the endpoint's ``Endpoint/operationID`` (a generated client's operation
/// ID). Its default is bounded: the path template, or the path with identifier-like segments
/// written `{id}`, so a route makes one series however many identifiers pass through it.
public struct RequestMetrics: Sendable {
    /// The first part of every metric's label.
    public var prefix: String {
        didSet { handles = MetricHandles(prefix: prefix, factory: factory) }
    }
    /// Where the metrics go; the bootstrapped `MetricsSystem` unless given.
    public var factory: any MetricsFactory {
        didSet { handles = MetricHandles(prefix: prefix, factory: factory) }
    }
    /// Copies of this stage share them, as they share the factory.
    private var handles: MetricHandles

    /// A metrics stage.
    ///
    /// - Parameters:
    ///   - prefix: The first part of every metric's label.
    ///   - factory: Where the metrics go; the bootstrapped `MetricsSystem` unless given.
    public init(prefix: String = "backstop", factory: any MetricsFactory = MetricsSystem.factory) {
        self.prefix = prefix
        self.factory = factory
        self.handles = MetricHandles(prefix: prefix, factory: factory)
    }

    /// Counts one token refresh, with `outcome` such as `succeeded` or `failed`.
    func recordRefresh(outcome: String) {
        handles.counter("refreshes_total", dimensions: [("outcome", outcome)]).increment()
    }

    /// Counts `count` saved-answer events of `operation` with `outcome` (`saved`, `answered`,
    /// `revalidated`, `evicted`).
    func recordSavedAnswer(operation: String, outcome: String, count: Int = 1) {
        handles.counter("saved_answers_total", dimensions: [("operation", operation), ("outcome", outcome)]).increment(by: count)
    }

    func record(_ outcome: RequestOutcome) {
        let operation = ("operation", outcome.operationID)
        let request = handles.request(
            operation: outcome.operationID, method: outcome.method.rawValue,
            status: outcome.status.map { $0.code })
        request.count.increment()
        let (seconds, attoseconds) = outcome.duration.components
        request.duration.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        if let failure = outcome.failure {
            // Two parts of the grouping identifier: the kind, without codes' messages or paths.
            let kind = failure.identifier.split(separator: ".").prefix(2).joined(separator: ".")
            handles.counter("failures_total", dimensions: [operation, ("layer", failure.layer), ("kind", kind)]).increment()
        }
        for reason in outcome.retries {
            handles.counter("retries_total", dimensions: [operation, ("reason", reason)]).increment()
        }
        if outcome.repairs > 0 {
            handles.repairs(operation: outcome.operationID).increment(by: outcome.repairs)
        }
    }
}
