import Foundation

/// A client-wide allowance of retries, so a failing backend does not get a retry storm.
///
/// Every request deposits ``share`` of a retry and every retry withdraws a whole one; a
/// retry is made only while the balance has one. The balance starts at ``reserve`` and
/// never exceeds what the last ``recentRequests`` requests would deposit on top of it, so
/// an hour of healthy traffic does not pay for a storm later. However the requests
/// interleave, `n` requests get at most `reserve + share × n` retries.
public final class RetryBudget: Sendable {
    /// The retries each request earns, such as 0.2 for one retry per five requests.
    public let share: Double
    /// Retries allowed before any request has earned one.
    public let reserve: Int
    /// How many requests' deposits the balance remembers.
    public let recentRequests: Int

    private let balance: LockedValue<Double>

    /// A budget; share it between clients by passing the same instance.
    ///
    /// - Parameters:
    ///   - share: The retries each request earns; negative values count as 0.
    ///   - reserve: Retries allowed before any request has earned one.
    ///   - recentRequests: How many requests' deposits the balance remembers.
    public init(share: Double = 0.2, reserve: Int = 10, recentRequests: Int = 100) {
        self.share = max(share, 0)
        self.reserve = max(reserve, 0)
        self.recentRequests = max(recentRequests, 0)
        balance = LockedValue(Double(self.reserve))
    }

    /// No limit beyond each policy's own.
    public static var unlimited: RetryBudget { RetryBudget(share: 1, reserve: Int.max / 2) }

    /// Counts one request.
    package func deposit() {
        let ceiling = Double(reserve) + share * Double(recentRequests)
        balance.withLock { $0 = min($0 + share, ceiling) }
    }

    /// Takes one retry from the balance; `false` when there is none left.
    package func withdraw() -> Bool {
        balance.withLock { value in
            guard value >= 1 else { return false }
            value -= 1
            return true
        }
    }
}
