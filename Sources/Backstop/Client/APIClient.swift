import BackstopJSON
import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

/// Sends ``Endpoint``s to one backend and answers their payloads or typed errors.
///
/// ```swift
/// let client = APIClient<AppCode>(
///     baseURL: URL(string: "https://api.example.com/v1")!,
///     contract: EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))
/// )
/// let group: StudyGroup = try await client.send(Endpoint<StudyGroup, StudyGroupCode>(.get, "groups/42"))
/// ```
///
/// Every call goes through the stages of its ``pipeline`` (logging, metrics, app-wide codes,
/// timeouts, retry, authentication and the app's own middlewares, in the order
/// ``ClientPipeline`` fixes), then the `ClientTransport`: `URLSessionTransport` unless given.
/// Each response body is read once, parsed once, and decoded with ``contract``.
///
/// - A call that outlives its timeout (the endpoint's, else the pipeline's, if any) ends as
///   `.transport` `timedOut`. Cancelling the caller's task ends the call at once as
///   `.transport` `cancelled`, also while it waits for a backoff or a token refresh.
/// - A response body larger than ``ClientPipeline/maximumResponseBytes`` is `.client`
///   `responseTooLarge`.
/// - A path that makes no URL, or a body that cannot be encoded, is a `.client` error
///   (`invalidURL`, `unencodableBody`) that names it.
public struct APIClient<General: ServerCode>: Sendable {
    /// Endpoint paths are appended to its path.
    public var baseURL: URL {
        didSet { baseURLHasHost = baseURL.absoluteURL.host != nil }
    }
    /// Read once, not on every call: Foundation parses the URL to answer it.
    private(set) var baseURLHasHost: Bool
    /// How the backend wraps responses, unless an endpoint has its own.
    public var contract: any ResponseContract
    /// Decodes payloads; its reporter hears every repair (logged at `warning` by default).
    public var decoder: ResilientJSONDecoder
    /// The stages every call goes through.
    public var pipeline: ClientPipeline {
        didSet { send = pipeline.composed(before: Self.sending(with: transport)) }
    }
    /// `URLSessionTransport` unless given.
    public var transport: any ClientTransport {
        didSet { send = pipeline.composed(before: Self.sending(with: transport)) }
    }
    /// The app's middlewares and the transport, composed once.
    private var send: ClientPipeline.Send

    /// A client for one backend.
    ///
    /// - Parameters:
    ///   - baseURL: Where endpoint paths start; it must have a host.
    ///   - contract: The backend's envelope, for endpoints that do not name their own.
    ///   - decoder: Decodes payloads and reports their repairs; logs them at `warning` unless told otherwise.
    ///   - pipeline: The stages every call passes through, in the order the library fixes.
    ///   - transport: Sends requests: URLSession's unless given, or AsyncHTTPClient's on servers.
    public init(
        baseURL: URL,
        contract: any ResponseContract = EnvelopeContract.noEnvelope,
        decoder: ResilientJSONDecoder = ResilientJSONDecoder(reporter: LoggingRepairReporter()),
        pipeline: ClientPipeline = ClientPipeline(),
        transport: any ClientTransport = URLSessionTransport()
    ) {
        self.baseURL = baseURL
        self.baseURLHasHost = baseURL.absoluteURL.host != nil
        self.contract = contract
        self.decoder = decoder
        self.pipeline = pipeline
        self.transport = transport
        send = pipeline.composed(before: Self.sending(with: transport))
    }

    private static func sending(with transport: any ClientTransport) -> ClientPipeline.Send {
        { request, body, url, operationID in try await transport.send(request, body: body, baseURL: url, operationID: operationID) }
    }

    /// Sends `endpoint` and answers its payload.
    public func send<Payload, Module>(
        _ endpoint: Endpoint<Payload, Module>
    ) async throws(APIError<General, Module>) -> Payload {
        try await response(for: endpoint).payload
    }

    /// Sends `endpoint` and answers the whole response: status, headers, payload, repairs,
    /// attempts and duration.
    public func response<Payload, Module>(
        for endpoint: Endpoint<Payload, Module>
    ) async throws(APIError<General, Module>) -> APIResponse<Payload> {
        // A call whose task is already cancelled costs nothing more: not even a request.
        if Task.isCancelled { throw .transport(TransportFailure(.cancelled, underlying: CancellationError())) }
        let made = Result { () throws(APIError<General, Module>) in try makeRequest(for: endpoint) }
        guard let tracing = pipeline.tracing, tracing.tracer.isTracing else { return try await call(endpoint, made, span: nil).get() }
        let traced = {
            let request = (try? made.get())?.0 ?? HTTPRequest(method: endpoint.method, scheme: nil, authority: nil, path: endpoint.path)
            return TracedCall(operationName: endpoint.operationID, request: request, baseURL: baseURL)
        }
        return try await tracing.tracer.withCallSpan(traced) { span in await call(endpoint, made, span: span) }.get()
    }

    /// The call of `endpoint` whose request line and body are `made`, inside `span` if traced.
    private func call<Payload, Module>(
        _ endpoint: Endpoint<Payload, Module>, _ made: Result<(HTTPRequest, HTTPBody?), APIError<General, Module>>,
        span: (any CallSpan)?
    ) async -> Result<APIResponse<Payload>, APIError<General, Module>> {
        let start = ContinuousClock.now
        let record = CallRecord(span: span)
        let contract = endpoint.contract ?? self.contract
        var request: HTTPRequest?
        var status: HTTPResponse.Status?
        let result: Result<APIResponse<Payload>, APIError<General, Module>>
        do throws(APIError<General, Module>) {
            let (made, body) = try made.get()
            request = made
            let call = CallOptions(
                operationID: endpoint.operationID, retry: endpoint.retry, isIdempotent: endpoint.isIdempotent,
                requiresAuthentication: endpoint.requiresAuthentication, timeout: endpoint.timeout,
                codes: CodeReader(contract: contract, generalCodes: General.self, decoder: decoder))
            // The trace context goes on what is sent, never into the coalescing key: each call has its own.
            let sent =
                span.map { span in
                    var sent = made
                    span.inject(into: &sent.headerFields)
                    return sent
                } ?? made
            let answer: Answer
            do {
                if let coalescing = pipeline.coalescing, made.method == .get, body == nil {
                    let key = RequestCoalescing.Key(
                        method: made.method, path: made.path ?? "", headerFields: made.headerFields,
                        requiresAuthentication: endpoint.requiresAuthentication)
                    answer = try await coalescing.answer(for: key) {
                        try await pipeline.exchange(sent, body: nil, baseURL: baseURL, call: call, record: record, send: send)
                    }
                } else {
                    answer = try await pipeline.exchange(sent, body: body, baseURL: baseURL, call: call, record: record, send: send)
                }
            } catch {
                throw APIError<General, Module>(thrown: error)
            }
            status = answer.response.status
            // The pipeline parsed the body to read its code; decoding reads the same parse.
            let report = try contract.unwrap(
                Payload.self, from: answer.body, parsed: answer.parsed?.reading(with: decoder),
                response: answer.response, decoder: decoder, throwing: APIError<General, Module>.self)
            pipeline.contractDrift?.record(report.repairs, operation: endpoint.operationID)
            result = .success(
                APIResponse(
                    status: answer.response.status, headerFields: answer.response.headerFields,
                    payload: report.value, repairs: report.repairs,
                    attempts: record.attempts, duration: ContinuousClock.now - start))
        } catch {
            if case .http(let failure) = error { status = failure.status }
            result = .failure(error)
        }
        if let span {
            switch result {
            case .success: span.recordEnd(status: status, errorType: nil)
            case .failure(let error): span.recordEnd(status: status, errorType: error.groupingIdentifier)
            }
        }
        if pipeline.observes {
            var outcome = RequestOutcome(
                method: endpoint.method, path: request?.path ?? endpoint.path,
                operationID: endpoint.operationID, status: status,
                duration: ContinuousClock.now - start, attempts: record.attempts,
                retries: record.retries, repairs: 0)
            switch result {
            case .success(let response): outcome.repairs = response.repairs.count
            case .failure(let error): outcome.fail(with: error)
            }
            pipeline.report(outcome, request: request, record: record)
        }
        return result
    }
}
