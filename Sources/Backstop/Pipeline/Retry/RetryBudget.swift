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

    /// A budget; share it between clients by passing the same instance. It is a reference:
    /// every copy of a ``ClientPipeline`` holding it (the default value included) draws on the
    /// same balance; give a copy a new budget for its retries to count apart.
    ///
    /// - Parameters:
    ///   - share: The retries each request earns; a finite number, 0 or more.
    ///   - reserve: Retries allowed before any request has earned one; 0 or more.
    ///   - recentRequests: How many requests' deposits the balance remembers; 0 or more.
    /// - Precondition: Every value within the range given above. A value outside it is a
    ///   programmer error that stops the program here, not a value quietly changed.
    public init(share: Double = 0.2, reserve: Int = 10, recentRequests: Int = 100) {
        precondition(share.isFinite && share >= 0, "RetryBudget: share must be a finite number, 0 or more, not \(share)")
        precondition(reserve >= 0, "RetryBudget: reserve must be 0 or more, not \(reserve)")
        precondition(recentRequests >= 0, "RetryBudget: recentRequests must be 0 or more, not \(recentRequests)")
        self.share = share
        self.reserve = reserve
        self.recentRequests = recentRequests
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
