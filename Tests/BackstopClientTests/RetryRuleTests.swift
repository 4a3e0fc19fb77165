import Backstop
import Foundation
import Testing

extension BackstopClient {
    /// The retry rules as tables: no server, no clock, no sleeping.
    @Suite("Retry rules")
    struct RetryRuleTests {
        struct Rule: Sendable, CustomTestStringConvertible {
            var method: HTTPRequest.Method
            var isIdempotent: Bool?
            var failure: RetryPolicy.Failure
            var retries: Int
            var retried: Bool

            init(_ method: HTTPRequest.Method, _ failure: RetryPolicy.Failure, idempotent: Bool? = nil, retries: Int = 0, _ retried: Bool) {
                self.method = method
                self.isIdempotent = idempotent
                self.failure = failure
                self.retries = retries
                self.retried = retried
            }

            var testDescription: String {
                "\(method.rawValue) \(failure)\(isIdempotent.map { " idempotent: \($0)" } ?? "") after \(retries) → \(retried)"
            }
        }

        static let rules: [Rule] = [
            // Statuses.
            Rule(.get, .status(408), true), Rule(.get, .status(429), true), Rule(.get, .status(500), true),
            Rule(.get, .status(502), true), Rule(.get, .status(503), true), Rule(.get, .status(504), true),
            Rule(.get, .status(400), false), Rule(.get, .status(401), false), Rule(.get, .status(404), false),
            Rule(.get, .status(501), false), Rule(.get, .status(505), false),
            // Methods.
            Rule(.head, .status(503), true), Rule(.put, .status(503), true), Rule(.delete, .status(503), true),
            Rule(.options, .status(503), true), Rule(.trace, .status(503), true),
            Rule(.post, .status(503), false), Rule(.patch, .status(503), false), Rule(.connect, .status(503), false),
            Rule(.post, .status(503), idempotent: true, true), Rule(.get, .status(503), idempotent: false, false),
            // Transport reasons.
            Rule(.get, .transport(.timedOut), true), Rule(.get, .transport(.connectionLost), true),
            Rule(.get, .transport(.cannotConnectToHost), true), Rule(.get, .transport(.cannotFindHost), true),
            Rule(.get, .transport(.cancelled), false), Rule(.get, .transport(.offline), false),
            Rule(.get, .transport(.tlsFailure), false), Rule(.get, .transport(.other), false),
            Rule(.post, .transport(.timedOut), false),
            // Business failures.
            Rule(.get, .server(.rateLimited), true), Rule(.get, .server(.tokenExpired), false),
            Rule(.get, .server(.maintenance), false), Rule(.get, .server(.signInRequired), false),
            Rule(.get, .server(nil), false),
            // The limit: two retries, three attempts.
            Rule(.get, .status(503), retries: 1, true), Rule(.get, .status(503), retries: 2, false),
        ]

        @Test(arguments: rules)
        func defaultRules(rule: Rule) {
            #expect(
                RetryPolicy.default.shouldRetry(
                    rule.method, isIdempotent: rule.isIdempotent, after: rule.failure,
                    retries: rule.retries) == rule.retried)
        }

        @Test func neverRetriesNothing() {
            #expect(!RetryPolicy.never.shouldRetry(.get, after: .status(503), retries: 0))
        }

        struct Delay: Sendable, CustomTestStringConvertible {
            var policy = RetryPolicy.default
            var retry: Int
            var random: Double
            var retryAfter: Duration?
            var expected: Duration

            var testDescription: String {
                "retry \(retry), random \(random), Retry-After \(retryAfter.map { "\($0)" } ?? "none") → \(expected)"
            }
        }

        static let delays: [Delay] = [
            // Full jitter under scale × base^(retry − 1): 0.5 s, 1 s, 2 s…
            Delay(retry: 1, random: 1, expected: .milliseconds(500)),
            Delay(retry: 2, random: 1, expected: .seconds(1)),
            Delay(retry: 3, random: 1, expected: .seconds(2)),
            Delay(retry: 2, random: 0.5, expected: .milliseconds(500)),
            Delay(retry: 3, random: 0, expected: .zero),
            // The cap.
            Delay(retry: 10, random: 1, expected: .seconds(30)),
            Delay(
                policy: RetryPolicy(exponentialBackoffBase: 3, exponentialBackoffScale: .seconds(1), maximumDelay: .seconds(5)),
                retry: 2, random: 1, expected: .seconds(3)),
            Delay(
                policy: RetryPolicy(exponentialBackoffBase: 3, exponentialBackoffScale: .seconds(1), maximumDelay: .seconds(5)),
                retry: 3, random: 1, expected: .seconds(5)),
            // Retry-After: as asked, whatever the jitter, capped at a minute.
            Delay(retry: 1, random: 0, retryAfter: .seconds(7), expected: .seconds(7)),
            Delay(retry: 2, random: 1, retryAfter: .zero, expected: .zero),
            Delay(retry: 1, random: 1, retryAfter: .seconds(120), expected: .seconds(60)),
        ]

        @Test(arguments: delays)
        func waits(delay: Delay) {
            #expect(delay.policy.delay(beforeRetry: delay.retry, retryAfter: delay.retryAfter, random: delay.random) == delay.expected)
        }

        @Test func theBudgetAllowsItsReserveThenAShareOfRequests() {
            let budget = RetryBudget(share: 0.5, reserve: 2, recentRequests: 4)
            #expect(budget.withdraw())
            #expect(budget.withdraw())
            #expect(!budget.withdraw())
            budget.deposit()
            #expect(!budget.withdraw())
            budget.deposit()
            #expect(budget.withdraw())
            // Deposits stop at the reserve plus what the recent requests earn: 2 + 0.5 × 4.
            for _ in 0..<100 { budget.deposit() }
            var retries = 0
            while budget.withdraw() { retries += 1 }
            #expect(retries == 4)
        }
    }
}
