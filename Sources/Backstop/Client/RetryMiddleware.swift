import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends a failed request again, by the rules of a ``RetryPolicy``, within a ``RetryBudget``.
///
/// Works in ``APIClient`` and in any OpenAPI-generated client. Place it after logging and
/// metrics (so they see one call) and before authentication (so every attempt carries the
/// current credential); see ``APIClient`` for the whole order.
///
/// - The request body is replayed exactly on every attempt; a body that can be iterated
///   only once is read into memory first (up to ``maximumBodyBytes``).
/// - A business code with a retryable role (`rateLimited`) is read with the
///   ``ServerCodeClassifier`` given here, or in ``APIClient`` with the client's own.
/// - Cancelling the task ends a backoff wait at once, with `CancellationError`.
/// - When the attempts run out, the last response is returned or the last error thrown.
public struct RetryMiddleware: ClientMiddleware {
    /// The rules, unless the endpoint has its own.
    public var policy: RetryPolicy
    /// Shared by every copy of this middleware: one budget per client.
    public let budget: RetryBudget
    /// Reads business codes for the retryable roles; ``APIClient`` provides its own when `nil`.
    public var classifier: ServerCodeClassifier?
    /// The largest request body buffered for replay, and response body read to classify.
    public var maximumBodyBytes: Int

    private let clock: any Clock<Duration>
    private let random: @Sendable () -> Double
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - clock: Waits out the backoff; tests pass a `TestClock` or an `ImmediateClock`.
    ///   - random: A number in `0…1` for the jitter.
    ///   - now: The wall-clock time, to read `Retry-After` dates of responses without a `Date`.
    public init(
        policy: RetryPolicy = .default,
        budget: RetryBudget = RetryBudget(),
        classifier: ServerCodeClassifier? = nil,
        maximumBodyBytes: Int = APIClient<NoModuleCodes>.defaultMaximumResponseBytes,
        clock: any Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.policy = policy
        self.budget = budget
        self.classifier = classifier
        self.maximumBodyBytes = maximumBodyBytes
        self.clock = clock
        self.random = random
        self.now = now
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let context = RequestContext.current
        let policy = context?.retryPolicy ?? policy
        budget.deposit()
        guard policy.allowsRetry(of: request.method, isIdempotent: context?.isIdempotent) else {
            return try await next(request, body, baseURL)
        }
        let classifier = policy.retryableRoles.isEmpty ? nil : (classifier ?? context?.classifier)
        let body = try await BodyCollection.replayable(body, upTo: maximumBodyBytes)
        var retries = 0
        while true {
            let attempt: Attempt
            do {
                attempt = try await send(request, body: body, baseURL: baseURL, policy: policy, classifier: classifier, next: next)
            } catch {
                if Task.isCancelled { throw error }
                let failure = RetryPolicy.Failure.transport(TransportFailure(error).reason)
                guard retries < policy.retryLimit, policy.isRetryable(failure), budget.withdraw() else { throw error }
                retries += 1
                try await wait(before: retries, failure: failure, response: nil, policy: policy, context: context)
                continue
            }
            guard case .retryable(let failure) = attempt.verdict, retries < policy.retryLimit, budget.withdraw() else {
                return (attempt.response, attempt.body)
            }
            retries += 1
            try await wait(before: retries, failure: failure, response: attempt.response, policy: policy, context: context)
        }
    }

    /// One attempt's response and whether the rules would retry it.
    private struct Attempt {
        enum Verdict { case final, retryable(RetryPolicy.Failure) }
        var response: HTTPResponse
        var body: HTTPBody?
        var verdict: Verdict
    }

    private func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, policy: RetryPolicy, classifier: ServerCodeClassifier?,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> Attempt {
        let (response, responseBody) = try await next(request, body, baseURL)
        let status = response.status.code
        if policy.retryableStatuses.contains(status) {
            return Attempt(response: response, body: responseBody, verdict: .retryable(.status(status)))
        }
        guard let classifier else { return Attempt(response: response, body: responseBody, verdict: .final) }
        let (role, body) = try await classifier.role(of: response, body: responseBody, upTo: maximumBodyBytes)
        let failure = RetryPolicy.Failure.server(role)
        return Attempt(response: response, body: body, verdict: policy.isRetryable(failure) ? .retryable(failure) : .final)
    }

    private func wait(
        before retry: Int, failure: RetryPolicy.Failure, response: HTTPResponse?, policy: RetryPolicy, context: RequestContext?
    ) async throws {
        context?.recordRetry(reason: failure.description)
        let retryAfter = response.flatMap { RetryAfter.duration(in: $0.headerFields, now: now()) }
        let delay = policy.delay(beforeRetry: retry, retryAfter: retryAfter, random: random())
        try await clock.sleep(for: delay, tolerance: nil)
    }
}
