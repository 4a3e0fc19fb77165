import BackstopJSON
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A whole ``ClientPipeline`` as one `ClientMiddleware`, for an OpenAPI-generated client.
///
/// ```swift
/// let generated = Client(
///     serverURL: try Servers.Server1.url(),
///     transport: URLSessionTransport(),
///     middlewares: [PipelineMiddleware(pipeline, contract: backendB, generalCodes: AppCode.self)]
/// )
/// ```
///
/// Each generated operation then goes through the same stages, in the same order, as a call
/// of ``APIClient``: one log line named by its operation ID, the same metrics, retries by the
/// same rules (a rate-limited code inside a 200 envelope included), the session's single
/// refresh, app-wide events, and the timeouts. Give it as the only middleware, or the first:
/// middlewares listed after it run around each attempt, as the pipeline's own
/// ``ClientPipeline/middlewares`` do.
///
/// - The response body is read once, within ``ClientPipeline/maximumResponseBytes``, and
///   handed on to the generated code; a request body that can be read only once is buffered
///   to be replayed.
/// - Operations get the pipeline's rules: retries by method, the credential unless their ID is
///   in ``unauthenticatedOperations``.
/// - Failures reach the generated client's caller inside OpenAPI's `ClientError`:
///   `TransportFailure(error)` classifies a transport failure (a timeout included), and a
///   session that cannot authenticate throws ``AuthenticationError``. A status of 400 or more
///   is returned as a response, and logged and counted as an HTTP failure.
public struct PipelineMiddleware: ClientMiddleware {
    /// The stages every operation goes through.
    public let pipeline: ClientPipeline
    /// Operations sent without the session's credential, such as `signIn` and `refreshToken`.
    public var unauthenticatedOperations: Set<String>

    /// Reads business codes when a stage acts on them; `nil` when none does, so bodies are not parsed.
    private let codes: CodeReader?

    /// The middleware that runs `pipeline` for every operation of a generated client.
    ///
    /// - Parameters:
    ///   - pipeline: The stages every operation goes through.
    ///   - contract: Where the backend puts its business codes, for the stages that act on
    ///     their roles (retrying `rateLimited`, refreshing on `tokenExpired`, app-wide events).
    ///   - generalCodes: The app-wide codes and their roles.
    ///   - decoder: Parses bodies to read their codes; its policy should be the one the app
    ///     decodes with.
    ///   - unauthenticatedOperations: The operation IDs sent without the session's credential,
    ///     such as `signIn` and `refreshToken`.
    public init<General: ServerCode>(
        _ pipeline: ClientPipeline,
        contract: any ResponseContract,
        generalCodes: General.Type,
        decoder: ResilientJSONDecoder = ResilientJSONDecoder(),
        unauthenticatedOperations: Set<String> = []
    ) {
        self.pipeline = pipeline
        self.unauthenticatedOperations = unauthenticatedOperations
        let readsCodes = !pipeline.retry.retryableRoles.isEmpty || pipeline.authentication != nil || pipeline.generalCodes != nil
        codes = readsCodes ? CodeReader(contract: contract, generalCodes: General.self, decoder: decoder) : nil
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let tracing = pipeline.tracing, tracing.tracer.isTracing else {
            return try await call(request, body: body, baseURL: baseURL, operationID: operationID, span: nil, next: next).get()
        }
        let traced = { TracedCall(operationName: operationID, request: request, baseURL: baseURL) }
        return try await tracing.tracer.withCallSpan(traced) { span in
            await call(request, body: body, baseURL: baseURL, operationID: operationID, span: span, next: next)
        }.get()
    }

    /// One operation through the pipeline, inside `span` if traced.
    private func call(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        span: (any CallSpan)?,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async -> Result<(HTTPResponse, HTTPBody?), any Error> {
        let start = ContinuousClock.now
        let record = CallRecord(span: span)
        let call = CallOptions(
            operationID: operationID, requiresAuthentication: !unauthenticatedOperations.contains(operationID),
            codes: codes)
        var outcome = RequestOutcome(
            method: request.method, path: request.path ?? "", operationID: operationID, status: nil,
            duration: .zero, attempts: 0, retries: [], repairs: 0)
        var sent = request
        span?.inject(into: &sent.headerFields)
        do {
            let coalesces = pipeline.coalescing != nil && request.method == .get && body == nil
            let body = try await BodyCollection.replayable(body, upTo: pipeline.maximumResponseBytes)
            let answer = try await withoutActuallyEscaping(next) { next in
                // The exchange does not outlive this call, so `next` may be used as if it escaped.
                let next = UncheckedNext(next)
                let send = pipeline.composed { request, body, url, _ in try await next.send(request, body, url) }
                let exchange = { try await pipeline.exchange(sent, body: body, baseURL: baseURL, call: call, record: record, send: send) }
                guard let coalescing = pipeline.coalescing, coalesces else { return try await exchange() }
                // Keyed by the request as made: each call's trace context is its own.
                let key = RequestCoalescing.Key(
                    method: request.method, path: request.path ?? "", headerFields: request.headerFields,
                    requiresAuthentication: call.requiresAuthentication)
                return try await coalescing.answer(for: key, exchange: exchange)
            }
            let failure: APIError<NoModuleCodes, NoModuleCodes>? =
                answer.response.status.code >= 400 ? .http(HTTPFailure(status: answer.response.status)) : nil
            span?.recordEnd(status: answer.response.status, errorType: failure?.groupingIdentifier)
            if pipeline.observes {
                outcome.status = answer.response.status
                if let failure { outcome.fail(with: failure) }
                finish(&outcome, start: start, request: request, record: record)
            }
            return .success((answer.response, HTTPBody(answer.body)))
        } catch {
            if span != nil || pipeline.observes {
                let failure = APIError<NoModuleCodes, NoModuleCodes>(thrown: error)
                span?.recordEnd(status: nil, errorType: failure.groupingIdentifier)
                if pipeline.observes {
                    outcome.fail(with: failure)
                    finish(&outcome, start: start, request: request, record: record)
                }
            }
            return .failure(Self.surfaced(error))
        }
    }

    private func finish(_ outcome: inout RequestOutcome, start: ContinuousClock.Instant, request: HTTPRequest, record: CallRecord) {
        outcome.duration = ContinuousClock.now - start
        outcome.attempts = record.attempts
        outcome.retries = record.retries
        pipeline.report(outcome, request: request, record: record)
    }

    /// The error a generated client's caller sees: a refresh's own error when it failed
    /// transiently, else what was thrown.
    private static func surfaced(_ error: any Error) -> any Error {
        if let interrupted = error as? RefreshInterrupted { return interrupted.error }
        return error
    }
}

/// The generated client's `next`, which is not `@escaping`, held for the duration of one call.
private struct UncheckedNext: @unchecked Sendable {
    let send: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    init(_ send: @escaping @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) {
        self.send = send
    }
}
