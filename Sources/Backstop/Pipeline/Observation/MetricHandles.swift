import Metrics

/// The per-call metrics of ``RequestMetrics``, made once per series and reused.
///
/// swift-metrics asks for metrics to be created once and kept: making a `Counter` or a `Timer`
/// asks the factory for a handler, which a real backend looks up under a lock. Series are keyed
/// by what varies per call. Operation IDs default to a bounded name, the path template or the
/// path with its identifier-like segments written `{id}` (numbers, UUIDs, 16 or more hex digits,
/// anything with `@`, 20 or more letters, long tokens with a digit: see ``Endpoint/operationID``),
/// but an app's own IDs may hold anything, so at most ``limit`` series are kept; past it,
/// metrics are made per call, which costs time, never correctness.
final class MetricHandles: Sendable {
    /// The most series kept, over all metrics.
    static let limit = 512

    private struct RequestKey: Hashable {
        var operation: String
        var method: String
        var status: Int?
    }

    private struct Request {
        var count: Counter
        var duration: Timer
    }

    private struct Kept: @unchecked Sendable {
        // Counter and Timer are Sendable, and the dictionaries are only touched under the lock.
        var requests: [RequestKey: Request] = [:]
        var repairs: [String: Counter] = [:]
        var count: Int { requests.count + repairs.count }
    }

    private let prefix: String
    private let factory: any MetricsFactory
    private let kept = LockedValue(Kept())

    init(prefix: String, factory: any MetricsFactory) {
        self.prefix = prefix
        self.factory = factory
    }

    /// `backstop_requests_total` and `backstop_request_duration` for one operation, method and status.
    func request(operation: String, method: String, status: Int?) -> (count: Counter, duration: Timer) {
        let key = RequestKey(operation: operation, method: method, status: status)
        let request = reused({ $0.requests[key] }, keep: { $0.requests[key] = $1 }) {
            Request(
                count: Counter(
                    label: "\(prefix)_requests_total",
                    dimensions: [("operation", operation), ("method", method), ("status", status.map { "\($0)" } ?? "none")],
                    factory: factory),
                duration: Timer(
                    label: "\(prefix)_request_duration", dimensions: [("operation", operation), ("method", method)],
                    factory: factory))
        }
        return (request.count, request.duration)
    }

    /// `backstop_repairs_total` for one operation.
    func repairs(operation: String) -> Counter {
        reused({ $0.repairs[operation] }, keep: { $0.repairs[operation] = $1 }) {
            Counter(label: "\(prefix)_repairs_total", dimensions: [("operation", operation)], factory: factory)
        }
    }

    /// The series `find` finds, or one `make`s, which `keep` keeps while there is room.
    ///
    /// Closures, not a key path to the table: projecting a key path cost each call more than
    /// the lookup itself.
    private func reused<Value>(
        _ find: (Kept) -> Value?, keep: (inout Kept, Value) -> Void, make: () -> Value
    ) -> Value {
        if let value = kept.withLock({ find($0) }) { return value }
        let made = make()
        kept.withLock { kept in
            if kept.count < Self.limit, find(kept) == nil { keep(&kept, made) }
        }
        return made
    }

    /// Any other counter; made per call, for outcomes that are rare by nature (failures, retries, refreshes).
    func counter(_ name: String, dimensions: [(String, String)]) -> Counter {
        Counter(label: "\(prefix)_\(name)", dimensions: dimensions, factory: factory)
    }
}
