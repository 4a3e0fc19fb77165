import Foundation
import HTTPTypes

/// When a failed request is sent again, and how long to wait first.
///
/// The defaults start from Alamofire's `RetryPolicy` (2 retries, base 2, scale 0.5 s, the same
/// idempotent methods, 408 and 5xx statuses) and differ where an app's user is better served:
/// - Only idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS, TRACE) are retried, unless
///   the endpoint says it is idempotent (or says it is not). Same as Alamofire.
/// - Statuses 408, 500, 502, 503 and 504 are retried, as in Alamofire, and **429** too.
/// - Transport failures timed out, connection lost, cannot connect and cannot find host
///   are retried; a cancelled request never is. Alamofire also retries `notConnectedToInternet`,
///   `dataNotAllowed`, `internationalRoamingOff`, `badServerResponse`, `secureConnectionFailed`
///   and the certificate errors: Backstop does not, because waiting does not bring a network
///   back or fix a certificate, and the user is better told at once ("You're offline").
/// - A business failure is retried only when its general code has the `rateLimited`
///   role; a body that cannot be decoded never is. Alamofire knows no business codes.
/// - At most ``retryLimit`` retries, each after
///   `random(0 … min(maximumDelay, exponentialBackoffScale × exponentialBackoffBase^(retry−1)))`
///   ("full jitter", where Alamofire waits exactly `scale × base^retry`, so many clients that
///   failed together retry together), or after the response's `Retry-After` (seconds or
///   HTTP-date, read as ``RecoveryAlert/retryAfter`` reads it), capped at ``maximumRetryAfter``;
///   a malformed `Retry-After` is ignored. Alamofire ignores `Retry-After`.
/// - Retries also draw on the pipeline's ``RetryBudget``, which Alamofire does not have.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt; 2 makes at most 3 attempts.
    public var retryLimit: Int
    /// The factor between one retry's delay and the next.
    public var exponentialBackoffBase: Double
    /// The longest delay before the first retry.
    public var exponentialBackoffScale: Duration
    /// No backoff delay is longer than this.
    public var maximumDelay: Duration
    /// No `Retry-After` wait is longer than this.
    public var maximumRetryAfter: Duration
    /// The methods retried when the endpoint does not say whether it is idempotent.
    public var retryableMethods: Set<HTTPRequest.Method>
    /// The HTTP statuses worth another attempt.
    public var retryableStatuses: Set<Int>
    /// The transport failures worth another attempt.
    public var retryableTransportReasons: Set<TransportFailure.Reason>
    /// The roles of business codes worth retrying.
    public var retryableRoles: Set<ServerCodeRole>

    /// A policy; every argument left out keeps the default rule above.
    ///
    /// - Parameters:
    ///   - retryLimit: Retries after the first attempt; 0 or more.
    ///   - exponentialBackoffBase: The factor between one retry's delay and the next; a finite number, 1 or more.
    ///   - exponentialBackoffScale: The longest delay before the first retry; not negative.
    ///   - maximumDelay: No backoff delay is longer than this; not negative.
    ///   - maximumRetryAfter: No `Retry-After` wait is longer than this; not negative.
    ///   - retryableMethods: The methods retried when the endpoint does not say whether it is idempotent.
    ///   - retryableStatuses: The HTTP statuses worth another attempt.
    ///   - retryableTransportReasons: The transport failures worth another attempt.
    ///   - retryableRoles: The roles of business codes worth retrying.
    /// - Precondition: Every value within the range given above. A value outside it is a
    ///   programmer error that stops the program here, not a value quietly changed. Values set
    ///   later on the properties are not checked, and never trap: ``delay(beforeRetry:retryAfter:random:)``
    ///   reads a negative duration as zero and any other nonsense as ``maximumDelay``.
    public init(
        retryLimit: Int = 2,
        exponentialBackoffBase: Double = 2,
        exponentialBackoffScale: Duration = .milliseconds(500),
        maximumDelay: Duration = .seconds(30),
        maximumRetryAfter: Duration = .seconds(60),
        retryableMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options, .trace],
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableTransportReasons: Set<TransportFailure.Reason> = [.timedOut, .connectionLost, .cannotConnectToHost, .cannotFindHost],
        retryableRoles: Set<ServerCodeRole> = [.rateLimited]
    ) {
        precondition(retryLimit >= 0, "RetryPolicy: retryLimit must be 0 or more, not \(retryLimit)")
        precondition(
            exponentialBackoffBase.isFinite && exponentialBackoffBase >= 1,
            "RetryPolicy: exponentialBackoffBase must be a finite number, 1 or more, not \(exponentialBackoffBase)")
        precondition(
            exponentialBackoffScale >= .zero, "RetryPolicy: exponentialBackoffScale must not be negative, not \(exponentialBackoffScale)")
        precondition(maximumDelay >= .zero, "RetryPolicy: maximumDelay must not be negative, not \(maximumDelay)")
        precondition(maximumRetryAfter >= .zero, "RetryPolicy: maximumRetryAfter must not be negative, not \(maximumRetryAfter)")
        self.retryLimit = retryLimit
        self.exponentialBackoffBase = exponentialBackoffBase
        self.exponentialBackoffScale = exponentialBackoffScale
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
        self.retryableMethods = retryableMethods
        self.retryableStatuses = retryableStatuses
        self.retryableTransportReasons = retryableTransportReasons
        self.retryableRoles = retryableRoles
    }

    /// The rules above: Alamofire's, with 429, `Retry-After`, full jitter and the `rateLimited`
    /// role, and without the failures waiting cannot fix.
    public static let `default` = RetryPolicy()
    /// No retries at all.
    public static let never = RetryPolicy(retryLimit: 0)

    /// One attempt's failure, as the rules see it.
    public enum Failure: Sendable, Hashable, CustomStringConvertible {
        /// A response with an HTTP status the contract does not accept.
        case status(Int)
        /// No response, for this reason.
        case transport(TransportFailure.Reason)
        /// A business failure; the role of its general code, if any.
        case server(ServerCodeRole?)

        /// `status.503`, `transport.timedOut`, `server.rateLimited`, for logs and metrics.
        public var description: String {
            switch self {
            case .status(let code): "status.\(code)"
            case .transport(let reason): "transport.\(reason.rawValue)"
            case .server(let role): "server.\(role?.rawValue ?? "none")"
            }
        }
    }

    /// Whether requests with `method` may be sent twice; `isIdempotent` is the endpoint's word.
    public func allowsRetry(of method: HTTPRequest.Method, isIdempotent: Bool? = nil) -> Bool {
        retryLimit > 0 && (isIdempotent ?? retryableMethods.contains(method))
    }

    /// Whether `failure` is worth retrying, leaving out the method and the retry count.
    public func isRetryable(_ failure: Failure) -> Bool {
        switch failure {
        case .status(let code): retryableStatuses.contains(code)
        case .transport(let reason): retryableTransportReasons.contains(reason)
        case .server(let role): role.map(retryableRoles.contains) ?? false
        }
    }

    /// Whether a request that failed with `failure` after `retries` retries is sent again.
    public func shouldRetry(
        _ method: HTTPRequest.Method, isIdempotent: Bool? = nil, after failure: Failure, retries: Int
    ) -> Bool {
        retries < retryLimit && allowsRetry(of: method, isIdempotent: isIdempotent) && isRetryable(failure)
    }

    /// The wait before retry number `retry` (1 for the first).
    ///
    /// - Parameters:
    ///   - retry: Which retry is about to be made, counting from 1.
    ///   - retryAfter: The wait the failed response's `Retry-After` asked for, if it was
    ///     readable; waited instead of the backoff, capped at ``maximumRetryAfter``.
    ///   - random: A number in `0…1` that picks the jittered delay.
    public func delay(beforeRetry retry: Int, retryAfter: Duration? = nil, random: Double) -> Duration {
        if let retryAfter { return max(min(retryAfter, maximumRetryAfter), .zero) }
        let maximum = max(maximumDelay, .zero)
        // The growth is compared in seconds before any duration is multiplied by it: scale × base^n
        // overflows a duration (and traps) long before n reaches what a long retry limit allows.
        let exponent = Double(max(retry - 1, 0))
        let growth = pow(exponentialBackoffBase, exponent)
        let scale = max(exponentialBackoffScale, .zero)
        let ceiling: Duration =
            if growth.isFinite, growth >= 0, Self.seconds(scale) * growth < Self.seconds(maximum) { scale * growth } else { maximum }
        let fraction = random.isNaN ? 0 : min(max(random, 0), 1)
        // Exact at the top: a duration times 1.0 goes through a double's 53 bits.
        return fraction == 1 ? ceiling : ceiling * fraction
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
