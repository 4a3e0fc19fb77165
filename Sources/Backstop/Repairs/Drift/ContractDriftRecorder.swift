import BackstopJSON
import Foundation
import Metrics

/// Counts every repair by operation, field, what was found and what was done: the contract
/// drift a backend team can act on ("`GET users/{id}` sends `$.data.age` as a string, 4,210
/// times since Monday").
///
/// Give it to a pipeline (``ClientPipeline/contractDrift``) and every call's repairs are
/// recorded under its operation; or set it as a decoder's `RepairReporter`, and they are
/// recorded under the decoded type's name. Read it with ``report()``, upload or save the
/// `Codable` ``ContractDriftReport``, or render ``ContractDriftReport/table(markdown:)``.
///
/// - Paths are index-free (`$.data[*].id`), so a list's elements share one entry.
/// - Memory is bounded by construction, however many operations, paths and repairs a backend
///   brings:
///   - at most ``maximumEntries`` entries, each with one short sample; the repairs of kinds it
///     has no room for are counted in ``ContractDriftReport/droppedRepairs``;
///   - counters for at most ``maximumOperations`` operations; the repairs of later operations
///     are counted under the operation `other` and in
///     ``ContractDriftReport/droppedOperationLabels``;
///   - operation names and paths longer than ``maximumTextLength`` Unicode scalars are cut there
///     and end in `…`, so entries whose long texts start alike share one entry.
/// - Safe from any task; counts are exact however many calls record at once.
/// - Each repair also increments `backstop_contract_drift_total` with the dimensions
///   `operation` and `action` (never the path, whose values have no bound).
public final class ContractDriftRecorder: RepairReporter, Sendable {
    /// The most entries kept.
    public let maximumEntries: Int
    /// The most operations with counters of their own in `backstop_contract_drift_total`.
    public let maximumOperations: Int
    /// The most Unicode scalars of an operation name or a path kept; longer ones are cut and end in `…`.
    public static let maximumTextLength = 256
    /// The `operation` dimension of repairs whose operation came after ``maximumOperations`` others.
    public static let otherOperation = "other"
    private let now: @Sendable () -> Date
    private let factory: any MetricsFactory
    private let state = LockedValue(Entries())

    private struct Key: Hashable {
        var operation: String
        var path: String
        var action: String
        var found: String
    }

    private struct Entries {
        var entries: [Key: ContractDriftReport.Entry] = [:]
        var dropped = 0
        var droppedOperationLabels = 0
        /// One counter per operation and action, made once: a repair costs an increment.
        /// At most `maximumOperations` operations, each with at most one counter per action.
        var counters: [String: [Repair.Action: Counter]] = [:]
        /// The counters of the operations that came after the last one with counters of its own.
        var otherCounters: [Repair.Action: Counter] = [:]
    }

    /// A recorder.
    ///
    /// - Parameters:
    ///   - maximumEntries: The most entries kept; 1,000 unless given.
    ///   - maximumOperations: The most operations counted under their own names in the metric;
    ///     500 unless given.
    ///   - metricsFactory: Where repairs are counted; the bootstrapped `MetricsSystem` unless given.
    ///   - now: The wall-clock time, for first and last seen.
    public init(
        maximumEntries: Int = 1_000, maximumOperations: Int = 500,
        metricsFactory: any MetricsFactory = MetricsSystem.factory,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maximumEntries = max(maximumEntries, 0)
        self.maximumOperations = max(maximumOperations, 0)
        self.factory = metricsFactory
        self.now = now
    }

    /// Records `repairs` made while answering `operation`.
    public func record(_ repairs: [Repair], operation: String) {
        guard !repairs.isEmpty else { return }
        let time = now()
        let operation = Self.bounded(operation)
        // One increment per action, not per repair: a list with a broken field repairs every element.
        let increments: [(Counter, Int64)] = state.withLock { state in
            var actions: [(action: Repair.Action, count: Int64)] = []
            for repair in repairs {
                if let index = actions.firstIndex(where: { $0.action == repair.action }) {
                    actions[index].count += 1
                } else {
                    actions.append((repair.action, 1))
                }
                let key = Key(
                    operation: operation, path: Self.bounded(repair.indexFreePath), action: repair.action.rawValue,
                    found: repair.found.kind.rawValue)
                if let index = state.entries.index(forKey: key) {
                    state.entries.values[index].count += 1
                    state.entries.values[index].lastSeen = time
                } else if state.entries.count < maximumEntries {
                    state.entries[key] = ContractDriftReport.Entry(
                        operation: key.operation, path: key.path, action: key.action, found: key.found, count: 1,
                        firstSeen: time, lastSeen: time, sample: OneLine.text(repair.found.excerpt, limit: 40))
                } else {
                    state.dropped += 1
                }
            }
            return actions.map { action, count in (counter(operation: operation, action: action, count: count, in: &state), count) }
        }
        for (counter, count) in increments { counter.increment(by: count) }
    }

    /// `text`, or its first ``maximumTextLength`` Unicode scalars and `…`.
    private static func bounded(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: maximumTextLength, limitedBy: scalars.endIndex),
            end != scalars.endIndex
        else { return text }
        return String(scalars[..<end]) + "…"
    }

    /// The counter of `action` in `operation`, made once and kept: making one registers it with
    /// the factory. An operation that comes after `maximumOperations` others shares the counters
    /// of ``otherOperation``, and its `count` repairs are counted as dropped labels.
    private func counter(operation: String, action: Repair.Action, count: Int64, in state: inout Entries) -> Counter {
        if state.counters[operation] == nil, state.counters.count >= maximumOperations {
            state.droppedOperationLabels += Int(count)
            if let counter = state.otherCounters[action] { return counter }
            let counter = makeCounter(operation: Self.otherOperation, action: action)
            state.otherCounters[action] = counter
            return counter
        }
        if let counter = state.counters[operation]?[action] { return counter }
        let counter = makeCounter(operation: operation, action: action)
        state.counters[operation, default: [:]][action] = counter
        return counter
    }

    private func makeCounter(operation: String, action: Repair.Action) -> Counter {
        Counter(
            label: "backstop_contract_drift_total", dimensions: [("operation", operation), ("action", action.rawValue)],
            factory: factory)
    }

    /// Records a decoder's repairs under the decoded type's name.
    public func report(_ repairs: [Repair], decoding type: Any.Type) {
        record(repairs, operation: String(describing: type))
    }

    /// Everything recorded so far.
    public func report() -> ContractDriftReport {
        state.withLock {
            ContractDriftReport(
                entries: Array($0.entries.values), droppedRepairs: $0.dropped, droppedOperationLabels: $0.droppedOperationLabels)
        }
    }

    /// Forgets everything recorded, after a report was uploaded.
    ///
    /// The metric's counters are kept: they count since the app started.
    public func reset() {
        state.withLock { state in
            state.entries = [:]
            state.dropped = 0
            state.droppedOperationLabels = 0
        }
    }
}
