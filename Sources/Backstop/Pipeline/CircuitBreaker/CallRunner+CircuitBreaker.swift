import Foundation
import HTTPTypes
import OpenAPIRuntime

extension CallRunner {
    /// Runs `attempt` through its circuit of `breaker`: refused at once while the circuit is
    /// open, counted when it ends.
    func guarded(
        _ call: CallContext, by breaker: CircuitBreaker, attempt: (CallContext) async throws -> Answer
    ) async throws -> Answer {
        let circuit = breaker.circuit(baseURL: call.baseURL, operationID: call.options.operationID)
        let permit = try breaker.acquire(circuit)
        let answer: Answer
        do {
            answer = try await attempt(call)
        } catch {
            // A call cancelled, or past the deadline that cancels its attempts, says nothing of the backend.
            let cancelled = Task.isCancelled || call.deadline?.hasPassed == true
            breaker.record(permit, cancelled ? .neutral : breaker.verdict(of: error))
            throw error
        }
        breaker.record(permit, breaker.verdict(of: answer, now: pipeline.now()))
        return answer
    }
}
