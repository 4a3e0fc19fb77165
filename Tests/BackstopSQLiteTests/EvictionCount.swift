import Backstop
import Foundation

/// What a store's `evicted` callbacks reported: how often they were called and their sum.
final class EvictionCount: Sendable {
    private let counts = LockedValue(Counts())

    private struct Counts: Sendable {
        var calls = 0
        var total = 0
    }

    var calls: Int { counts.withLock { $0.calls } }
    var total: Int { counts.withLock { $0.total } }

    /// The callback to give `save(_:evicted:)`.
    var add: @Sendable (Int) -> Void {
        { count in
            self.counts.withLock {
                $0.calls += 1
                $0.total += count
            }
        }
    }
}
