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
/// Every call goes through the stages of its ``pipeline``, in the order ``ClientPipeline``
/// lists and fixes (observation, coalescing, the concurrency limit, app-wide codes, the total
/// timeout, retry, the circuit breaker, hedging, authentication, the attempt timeout, the
/// redirects, the app's middlewares), then the `ClientTransport`: a
/// ``StreamingURLSessionTransport`` unless given, on every platform, since it streams bodies
/// and hands redirects back everywhere.
/// Each response body is read once, parsed once, and decoded with ``contract``.
///
/// - A call that outlives its timeout (the endpoint's, else the pipeline's) ends as
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
    public var contract: any ResponseContract {
        didSet { codes = CodeReader(contract: contract, generalCodes: General.self, decoder: decoder) }
    }
    /// Decodes payloads; its reporter hears every repair (logged at `warning` by default).
    public var decoder: ResilientJSONDecoder {
        didSet {
            reader = ParsedJSON.Reader(decoder)
            codes = CodeReader(contract: contract, generalCodes: General.self, decoder: decoder)
        }
    }
    /// ``decoder`` frozen, and the codes of ``contract`` read with it: made when either
    /// changes, not on every call.
    private var reader: ParsedJSON.Reader
    private var codes: CodeReader
    /// The stages every call goes through.
    public var pipeline: ClientPipeline {
        didSet { (runner, send) = Self.compose(pipeline, transport) }
    }
    /// A ``StreamingURLSessionTransport`` unless given.
    public var transport: any ClientTransport {
        didSet { (runner, send) = Self.compose(pipeline, transport) }
    }
    /// Runs each call through ``pipeline``'s stages; made again when the pipeline or the transport changes.
    private var runner: CallRunner
    /// The app's middlewares and the transport, composed once.
    private var send: CallContext.Send

    /// A client for one backend.
    ///
    /// - Parameters:
    ///   - baseURL: Where endpoint paths start; it must have a host.
    ///   - contract: The backend's envelope, for endpoints that do not name their own.
    ///   - decoder: Decodes payloads and reports their repairs; logs them at `warning` unless told otherwise.
    ///   - pipeline: The stages every call passes through, in the order the library fixes.
    ///   - transport: Sends requests: a ``StreamingURLSessionTransport`` unless given, or
    ///     AsyncHTTPClient's on servers.
    public init(
        baseURL: URL,
        contract: any ResponseContract = EnvelopeContract.noEnvelope,
        decoder: ResilientJSONDecoder = ResilientJSONDecoder(reporter: LoggingRepairReporter()),
        pipeline: ClientPipeline = ClientPipeline(),
        transport: any ClientTransport = StreamingURLSessionTransport()
    ) {
        self.baseURL = baseURL
        self.baseURLHasHost = baseURL.absoluteURL.host != nil
        self.contract = contract
        self.decoder = decoder
        reader = ParsedJSON.Reader(decoder)
        codes = CodeReader(contract: contract, generalCodes: General.self, decoder: decoder)
        self.pipeline = pipeline
        self.transport = transport
        (runner, send) = Self.compose(pipeline, transport)
    }

    /// The runner of `pipeline`'s stages, placing attempt tasks as `transport` asks and letting
    /// it keep deadlines where it can and no middleware stands in front of it, and the app's
    /// middlewares composed in front of `transport`: made again when either changes.
    private static func compose(_ pipeline: ClientPipeline, _ transport: any ClientTransport) -> (CallRunner, CallContext.Send) {
        let keeper = pipeline.middlewares.isEmpty ? transport as? any DeadlineKeeping : nil
        return (
            CallRunner(pipeline, placement: CallRunner.placement(of: transport), deadlineKeeper: keeper),
            CallRunner.middlewares(pipeline.middlewares, before: CallRunner.transport(transport))
        )
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
        // Made again inside the call, with its body: only a traced call pays for it twice.
        let traced = {
            let request =
                (try? requestLine(for: endpoint))
                ?? HTTPRequest(method: endpoint.method, scheme: nil, authority: nil, path: endpoint.path)
            return TracedCall(operationName: endpoint.operationID, request: request, baseURL: baseURL)
        }
        var result: Result<APIResponse<Payload>, APIError<General, Module>>?
        await runner.observe(method: endpoint.method, operationID: endpoint.operationID, path: endpoint.path, traced: traced) {
            record in await call(endpoint, record: record, result: &result)
        }
        // `observe` always runs `call`; an error is made only if it did not, since making one
        // (its underlying error bridged) costs more than a small call.
        guard let result else { throw .transport(TransportFailure(.cancelled, underlying: CancellationError())) }
        return try result.get()
    }

    /// The call of `endpoint` from its request's making down through coalescing, and its payload
    /// decoded into `result`; answers what observation reports of it.
    private func call<Payload, Module>(
        _ endpoint: Endpoint<Payload, Module>,
        record: CallRecord, result: inout Result<APIResponse<Payload>, APIError<General, Module>>?
    ) async -> CallEnding {
        let start = ContinuousClock.now
        let contract = endpoint.contract ?? self.contract
        let codes = endpoint.contract.map { CodeReader(contract: $0, generalCodes: General.self, decoder: decoder) } ?? codes
        var request: HTTPRequest?
        var status: HTTPResponse.Status?
        do throws(APIError<General, Module>) {
            let (made, body) = try makeRequest(for: endpoint)
            request = made
            let options = CallOptions(
                operationID: endpoint.operationID, retry: endpoint.retry, isIdempotent: endpoint.isIdempotent,
                requiresAuthentication: endpoint.requiresAuthentication, timeout: endpoint.timeout,
                codes: codes,
                redirects: endpoint.redirects)
            let answer: Answer
            do {
                answer = try await runner.coalesce(
                    CallContext(
                        request: made, body: body, baseURL: baseURL, options: options, record: record, send: send,
                        sendIsBorrowed: false))
            } catch {
                throw APIError<General, Module>(thrown: error)
            }
            status = answer.response.status
            // The pipeline parsed the body to read its code; decoding reads the same parse.
            var repairs: [Repair] = []
            let payload = try contract.unwrap(
                Payload.self, from: answer.body, parsed: answer.parsed?.reading(with: reader),
                response: answer.response, decoder: decoder, repairs: &repairs, throwing: APIError<General, Module>.self)
            pipeline.recordDrift(repairs, operation: endpoint.operationID, request: request, record: record)
            result = .success(
                APIResponse(
                    status: answer.response.status, headerFields: answer.response.headerFields,
                    payload: payload, repairs: repairs,
                    attempts: record.attempts, duration: ContinuousClock.now - start))
            return CallEnding(request: made, status: status, repairs: repairs.count)
        } catch {
            if case .http(let failure) = error { status = failure.status }
            let redacted = pipeline.redacted(error, request: request, record: record)
            result = .failure(redacted)
            return CallEnding(failure: redacted, request: request, status: status)
        }
    }
}
