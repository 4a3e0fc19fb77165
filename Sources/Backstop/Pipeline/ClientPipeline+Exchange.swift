import Foundation
import HTTPTypes
import OpenAPIRuntime

extension ClientPipeline {
    /// The app's middlewares and whatever sends a request after them: the transport in
    /// ``APIClient``, the rest of a generated client's chain in ``PipelineMiddleware``.
    typealias Send = @Sendable (HTTPRequest, HTTPBody?, URL, String) async throws -> (HTTPResponse, HTTPBody?)

    /// ``middlewares`` in front of `next`, composed as a generated client composes them.
    func composed(before next: @escaping Send) -> Send {
        var send = next
        for middleware in middlewares.reversed() {
            let inner = send
            send = { request, body, url, operationID in
                try await middleware.intercept(request, body: body, baseURL: url, operationID: operationID) { request, body, url in
                    try await inner(request, body, url, operationID)
                }
            }
        }
        return send
    }

    /// Runs the stages inside observation, outermost first: the concurrency limit, app-wide
    /// codes, the total timeout, retry, the circuit breaker, authentication, the attempt timeout,
    /// then `send`; answers the final attempt's answer.
    ///
    /// `body` must be replayable: every attempt sends it again.
    func exchange(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, call: CallOptions, record: CallRecord, send: @escaping Send
    ) async throws -> Answer {
        guard let concurrencyLimit else {
            return try await limitedExchange(request, body: body, baseURL: baseURL, call: call, record: record, send: send)
        }
        return try await concurrencyLimit.run {
            try await limitedExchange(request, body: body, baseURL: baseURL, call: call, record: record, send: send)
        }
    }

    /// The stages inside the concurrency limit.
    private func limitedExchange(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, call: CallOptions, record: CallRecord, send: @escaping Send
    ) async throws -> Answer {
        let answer: Answer
        if let timeout = call.timeout ?? timeout {
            answer = try await withTimeout(timeout, clock: clock) {
                try await retrying(request, body: body, baseURL: baseURL, call: call, record: record, send: send)
            }
        } else {
            answer = try await retrying(request, body: body, baseURL: baseURL, call: call, record: record, send: send)
        }
        generalCodes?.observe(answer.role)
        return answer
    }

    /// What one attempt needs of the pipeline.
    var attemptStages: AttemptStages {
        AttemptStages(
            authentication: authentication, metrics: metrics, attemptTimeout: attemptTimeout, clock: clock,
            maximumResponseBytes: maximumResponseBytes)
    }
}
