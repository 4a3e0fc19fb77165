/// Each operation's recent latencies, for hedging at a percentile of them; safe from any task.
///
/// Bounded: ``Hedging/Delay/windowSize`` latencies for each of at most
/// ``Hedging/Delay/maximumOperations`` operations. A percentile is sorted out again only every
/// tenth latency, so a hedged call rarely sorts.
final class LatencyWindows: Sendable {
    private struct Window {
        var latencies: [Duration] = []
        var next = 0
        var recordedSinceSort = 0
        var sorted: [Duration] = []

        mutating func add(_ latency: Duration) {
            if latencies.count < Hedging.Delay.windowSize {
                latencies.append(latency)
            } else {
                latencies[next] = latency
                next = (next + 1) % Hedging.Delay.windowSize
            }
            recordedSinceSort += 1
        }
    }

    private let windows = LockedValue([String: Window]())

    /// Records that an attempt of `operationID` took `latency` to its first answer.
    func record(_ latency: Duration, for operationID: String) {
        windows.withLock { windows in
            guard windows[operationID] != nil || windows.count < Hedging.Delay.maximumOperations else { return }
            windows[operationID, default: Window()].add(latency)
        }
    }

    /// The `percentile` (nearest rank) of `operationID`'s latencies; `nil` until it has enough.
    func percentile(_ percentile: Double, of operationID: String) -> Duration? {
        windows.withLock { windows in
            guard let window = windows[operationID], window.latencies.count >= Hedging.Delay.minimumSamples else { return nil }
            if window.sorted.isEmpty || window.recordedSinceSort >= 10 {
                windows[operationID]?.sorted = window.latencies.sorted()
                windows[operationID]?.recordedSinceSort = 0
            }
            let sorted = windows[operationID]?.sorted ?? []
            let rank = Int((percentile / 100 * Double(sorted.count)).rounded(.up))
            return sorted[min(max(rank, 1), sorted.count) - 1]
        }
    }
}
