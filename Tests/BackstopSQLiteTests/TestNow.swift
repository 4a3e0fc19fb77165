import Backstop
import Foundation

/// A clock a test moves by hand, for a store's answers to age without waiting.
final class TestNow: Sendable {
    private let date = LockedValue(Date(timeIntervalSinceReferenceDate: 800_000_000))

    /// The time now, as the store reads it.
    var now: @Sendable () -> Date {
        { self.date.withLock { $0 } }
    }

    func advance(by seconds: TimeInterval) {
        date.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
