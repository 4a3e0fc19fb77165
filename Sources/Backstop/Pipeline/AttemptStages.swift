import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The stages of one attempt: authentication, the attempt timeout, the app's middlewares and
/// the transport, and the response body read whole.
///
/// Apart from ``ClientPipeline`` so that hedging's attempt tasks capture these few values, not
/// a copy of the whole pipeline, which retains every stage once per call.
struct AttemptStages: Sendable {
    let authentication: Authentication?
    let metrics: RequestMetrics?
    let attemptTimeout: Duration?
    let clock: any Clock<Duration>
    let maximumResponseBytes: Int

    /// Authentication around one attempt, unless the call goes without a credential.
    func authenticated(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, call: CallOptions, record: CallRecord,
        send: @escaping ClientPipeline.Send
    ) async throws -> Answer {
        guard let authentication, call.requiresAuthentication else {
            return try await attempt(request, body: body, baseURL: baseURL, call: call, record: record, send: send)
        }
        let refreshes = metrics.map { metrics in { @Sendable (outcome: String) in metrics.recordRefresh(outcome: outcome) } }
        return try await authentication.stage.authenticate(request, record: record, refreshes: refreshes) { request in
            try await attempt(request, body: body, baseURL: baseURL, call: call, record: record, send: send)
        }
    }

    /// One attempt within ``attemptTimeout``: the app's middlewares, the transport, and the
    /// response body read whole.
    private func attempt(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, call: CallOptions, record: CallRecord,
        send: @escaping ClientPipeline.Send
    ) async throws -> Answer {
        guard let attemptTimeout else {
            return try await sendOnce(request, body: body, baseURL: baseURL, call: call, record: record, send: send)
        }
        return try await withTimeout(attemptTimeout, clock: clock) {
            try await sendOnce(request, body: body, baseURL: baseURL, call: call, record: record, send: send)
        }
    }

    private func sendOnce(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, call: CallOptions, record: CallRecord,
        send: ClientPipeline.Send
    ) async throws -> Answer {
        record.recordAttempt()
        let (response, responseBody) = try await send(request, body, baseURL, call.operationID)
        let data = try await BodyCollection.collect(responseBody, upTo: maximumResponseBytes)
        return call.codes?.answer(response, body: data) ?? Answer(response: response, body: data)
    }
}
