import Foundation
import HTTPTypes
import OpenAPIRuntime

extension ClientPipeline {
    /// One attempt through ``circuitBreaker``, when there is one: refused at once while its
    /// circuit is open, counted when it ends.
    func guarded(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, call: CallOptions, record: CallRecord, send: @escaping Send
    ) async throws -> Answer {
        guard let circuitBreaker else {
            return try await hedged(request, body: body, baseURL: baseURL, call: call, record: record, send: send)
        }
        let circuit = circuitBreaker.circuit(baseURL: baseURL, operationID: call.operationID)
        let permit = try circuitBreaker.acquire(circuit)
        let answer: Answer
        do {
            answer = try await hedged(request, body: body, baseURL: baseURL, call: call, record: record, send: send)
        } catch {
            circuitBreaker.record(permit, Task.isCancelled ? .neutral : Self.verdict(of: error))
            throw error
        }
        circuitBreaker.record(permit, verdict(of: answer))
        return answer
    }

    /// A backend that says when to come back is away; other failures are those retry would retry.
    private func verdict(of answer: Answer) -> CircuitBreaker.Verdict {
        let status = answer.response.status.code
        let retryAfter = RetryAfter.duration(in: answer.response.headerFields, now: now())
        if answer.role == .maintenance { return .away(retryAfter) }
        if status == 503 || status == 429, let retryAfter { return .away(retryAfter) }
        if status == 408 || status == 429 || status >= 500 || answer.role == .rateLimited { return .failure }
        return .success
    }

    private static func verdict(of error: any Error) -> CircuitBreaker.Verdict {
        switch error {
        case is AuthenticationError, is RefreshInterrupted, is ClientFailure: .neutral
        default: TransportFailure(error).reason == .cancelled ? .neutral : .failure
        }
    }
}
