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
/// - Memory is bounded: at most ``maximumEntries`` entries, each with one short sample; the
///   repairs of kinds it has no room for are counted in ``ContractDriftReport/droppedRepairs``.
/// - Safe from any task; counts are exact however many calls record at once.
/// - Each repair also increments `backstop_contract_drift_total` with the dimensions
///   `operation` and `action` (never the path, whose values have no bound).
public final class ContractDriftRecorder: RepairReporter, Sendable {
    /// The most entries kept.
    public let maximumEntries: Int
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
        /// One counter per operation and action, made once: a repair costs an increment.
        var counters: [CounterKey: Counter] = [:]
    }

    private struct CounterKey: Hashable {
        var operation: String
        var action: String
    }

    /// A recorder.
    ///
    /// - Parameters:
    ///   - maximumEntries: The most entries kept; 1,000 unless given.
    ///   - metricsFactory: Where repairs are counted; the bootstrapped `MetricsSystem` unless given.
    ///   - now: The wall-clock time, for first and last seen.
    public init(
        maximumEntries: Int = 1_000, metricsFactory: any MetricsFactory = MetricsSystem.factory,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maximumEntries = max(maximumEntries, 0)
        self.factory = metricsFactory
        self.now = now
    }

    /// Records `repairs` made while answering `operation`.
    public func record(_ repairs: [Repair], operation: String) {
        guard !repairs.isEmpty else { return }
        let time = now()
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
                    operation: operation, path: repair.indexFreePath, action: repair.action.rawValue,
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
            return actions.map { action, count in (counter(operation: operation, action: action, in: &state), count) }
        }
        for (counter, count) in increments { counter.increment(by: count) }
    }

    /// The counter of `action` in `operation`, made once and kept: making one registers it with the factory.
    private func counter(operation: String, action: Repair.Action, in state: inout Entries) -> Counter {
        let key = CounterKey(operation: operation, action: action.rawValue)
        if let counter = state.counters[key] { return counter }
        let counter = Counter(
            label: "backstop_contract_drift_total", dimensions: [("operation", operation), ("action", action.rawValue)],
            factory: factory)
        state.counters[key] = counter
        return counter
    }

    /// Records a decoder's repairs under the decoded type's name.
    public func report(_ repairs: [Repair], decoding type: Any.Type) {
        record(repairs, operation: String(describing: type))
    }

    /// Everything recorded so far.
    public func report() -> ContractDriftReport {
        state.withLock { ContractDriftReport(entries: Array($0.entries.values), droppedRepairs: $0.dropped) }
    }

    /// Forgets everything recorded, after a report was uploaded.
    public func reset() {
        state.withLock { state in
            state.entries = [:]
            state.dropped = 0
        }
    }
}
