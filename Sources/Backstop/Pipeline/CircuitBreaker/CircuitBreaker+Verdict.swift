import Foundation
import HTTPTypes

extension CircuitBreaker {
    /// The default of ``countsAsFailure``: what ``RetryPolicy/default`` retries, which is what
    /// says the backend is failing.
    ///
    /// Statuses 408, 429, 500, 502, 503 and 504, the transport failures `timedOut`,
    /// `connectionLost`, `cannotConnectToHost` (a refused connection) and `cannotFindHost`, and
    /// the `rateLimited` role. Not a device that is offline, a TLS failure, a cancelled call, or
    /// statuses such as 501 and 505, which retrying does not fix either.
    public static func isBackendFailure(_ failure: RetryPolicy.Failure) -> Bool {
        RetryPolicy.default.isRetryable(failure)
    }

    /// What an attempt's answer means to its circuit: a backend that says when to come back is
    /// away; otherwise a failure when ``countsAsFailure`` says so, else a success.
    func verdict(of answer: Answer, now: Date) -> Verdict {
        let status = answer.status.code
        if answer.role == .maintenance { return .away(RetryAfter.duration(in: answer.response.headerFields, now: now)) }
        if status == 503 || status == 429, let retryAfter = RetryAfter.duration(in: answer.response.headerFields, now: now) {
            return .away(retryAfter)
        }
        if countsAsFailure(.status(status)) { return .failure }
        if let role = answer.role, countsAsFailure(.server(role)) { return .failure }
        return .success
    }

    /// What a thrown error means to its circuit: a failure when ``countsAsFailure`` says so;
    /// otherwise it says nothing of the backend (offline, a TLS failure, a cancelled call, a
    /// session that could not authenticate, a body over the limit).
    func verdict(of error: any Error) -> Verdict {
        switch error {
        case is AuthenticationError, is RefreshInterrupted, is ClientFailure: return .neutral
        default:
            let reason = TransportFailure(error).reason
            return reason != .cancelled && countsAsFailure(.transport(reason)) ? .failure : .neutral
        }
    }
}
