import Foundation
import HTTPTypes
import OpenAPIRuntime

extension CallRunner {
    /// Runs `attempt` until its outcome is final by the call's ``RetryPolicy``, the retry limit
    /// is reached or the budget is spent; answers the last answer or throws the last error.
    func retrying(_ call: CallContext, attempt: (CallContext) async throws -> Answer) async throws -> Answer {
        let policy = call.options.retry ?? pipeline.retry
        let method = call.request.method
        let isIdempotent = call.options.isIdempotent
        pipeline.retryBudget.deposit()
        guard policy.allowsRetry(of: method, isIdempotent: isIdempotent) else { return try await attempt(call) }
        var retries = 0
        while true {
            let outcome: Result<Answer, any Error>
            let failure: RetryPolicy.Failure
            do {
                let answer = try await attempt(call)
                guard let retryable = Self.failure(of: answer, policy: policy) else { return answer }
                (outcome, failure) = (.success(answer), retryable)
            } catch {
                // A cancelled call ends now, whatever its transport made of the cancellation; so
                // does a call past its deadline, whose attempts it cancelled.
                guard !Task.isCancelled, call.deadline?.hasPassed != true, let retryable = Self.failure(of: error) else { throw error }
                (outcome, failure) = (.failure(error), retryable)
            }
            guard policy.shouldRetry(method, isIdempotent: isIdempotent, after: failure, retries: retries),
                pipeline.retryBudget.withdraw()
            else { return try outcome.get() }
            retries += 1
            call.record.recordRetry(reason: failure.description)
            let retryAfter = (try? outcome.get()).flatMap { RetryAfter.duration(in: $0.response.headerFields, now: pipeline.now()) }
            let delay = policy.delay(beforeRetry: retries, retryAfter: retryAfter, random: pipeline.random())
            // A call that keeps its own deadline waits no longer than it, and ends timed out there.
            if let deadline = call.deadline, case let remaining = deadline.remaining, remaining <= delay {
                try await pipeline.clock.sleep(for: remaining, tolerance: nil)
                throw deadline.failure
            }
            // No wait is no sleep: a test clock would hold a sleep that ends where it starts.
            if delay > .zero { try await pipeline.clock.sleep(for: delay, tolerance: nil) }
        }
    }

    /// What the rules see in an answer that may be retried: its status, else its code's role;
    /// `nil` when `policy` would not retry it.
    static func failure(of answer: Answer, policy: RetryPolicy) -> RetryPolicy.Failure? {
        let status = answer.status.code
        if policy.retryableStatuses.contains(status) { return .status(status) }
        if let role = answer.role, policy.retryableRoles.contains(role) { return .server(role) }
        return nil
    }

    /// What the rules see in a thrown error: a transport failure, or nothing worth retrying
    /// (a session that cannot authenticate, a body over the limit).
    static func failure(of error: any Error) -> RetryPolicy.Failure? {
        switch error {
        case is AuthenticationError, is RefreshInterrupted, is ClientFailure: nil
        default: .transport(TransportFailure(error).reason)
        }
    }
}
