import Foundation
import HTTPTypes
import OpenAPIRuntime

extension RequestContext {
    /// Runs `next` for a middleware that reports each call once, and calls `report` with
    /// the call's outcome.
    ///
    /// Under ``APIClient`` the report waits for the decoded outcome (repairs, business
    /// failures). Elsewhere, as in a generated client, the outcome is what `next` returned
    /// or threw: statuses of 400 and above count as HTTP failures.
    static func reporting(
        _ request: HTTPRequest,
        operationID: String,
        next: () async throws -> (HTTPResponse, HTTPBody?),
        report: @escaping @Sendable (RequestOutcome, RequestContext) -> Void
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await withCurrent { context, _ in
            if context.reportsOutcome {
                context.onCompletion(report)
                return try await next()
            }
            let start = ContinuousClock.now
            var outcome = RequestOutcome(method: request.method, path: request.path ?? "", operationID: operationID,
                                         status: nil, duration: .zero, attempts: 0, retries: [], repairs: 0)
            do {
                let (response, body) = try await next()
                outcome.status = response.status
                if response.status.code >= 400 {
                    let error = APIError<NoModuleCodes, NoModuleCodes>.http(HTTPFailure(status: response.status))
                    outcome.failure = (error.layer.rawValue, error.groupingIdentifier, error.description)
                }
                finish(&outcome, start: start, context: context, report: report)
                return (response, body)
            } catch {
                let apiError: APIError<NoModuleCodes, NoModuleCodes> = APIClient.apiError(for: error)
                outcome.failure = (apiError.layer.rawValue, apiError.groupingIdentifier, apiError.description)
                finish(&outcome, start: start, context: context, report: report)
                throw error
            }
        }
    }

    private static func finish(
        _ outcome: inout RequestOutcome, start: ContinuousClock.Instant, context: RequestContext,
        report: (RequestOutcome, RequestContext) -> Void
    ) {
        outcome.duration = ContinuousClock.now - start
        // Outside APIClient nothing counts attempts at the transport, but each retry is one more.
        outcome.attempts = max(context.attempts, 1 + context.retries.count)
        outcome.retries = context.retries
        report(outcome, context)
    }
}
