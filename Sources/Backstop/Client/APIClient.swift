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
/// lists and fixes (observation, coalescing, saved answers, the concurrency limit, app-wide codes, the total
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
        get { core.baseURL }
        set { core = Core(baseURL: newValue, contract: contract, decoder: decoder, pipeline: pipeline, transport: transport) }
    }
    /// How the backend wraps responses, unless an endpoint has its own.
    public var contract: any ResponseContract {
        get { core.contract }
        set { core = Core(baseURL: baseURL, contract: newValue, decoder: decoder, pipeline: pipeline, transport: transport) }
    }
    /// Decodes payloads; its reporter hears every repair (logged at `warning` by default).
    public var decoder: ResilientJSONDecoder {
        get { core.decoder }
        set { core = Core(baseURL: baseURL, contract: contract, decoder: newValue, pipeline: pipeline, transport: transport) }
    }
    /// The stages every call goes through.
    public var pipeline: ClientPipeline {
        get { core.pipeline }
        set { core = Core(baseURL: baseURL, contract: contract, decoder: decoder, pipeline: newValue, transport: transport) }
    }
    /// A ``StreamingURLSessionTransport`` unless given.
    public var transport: any ClientTransport {
        get { core.transport }
        set { core = Core(baseURL: baseURL, contract: contract, decoder: decoder, pipeline: pipeline, transport: newValue) }
    }

    /// Everything a call reads, made again whenever a property changes: a call's closures
    /// capture this one reference, where a copy of the client cost each call about 1,300
    /// instructions.
    private(set) var core: Core

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
        core = Core(baseURL: baseURL, contract: contract, decoder: decoder, pipeline: pipeline, transport: transport)
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
        let core = core
        let traced = {
            let request =
                (try? core.requestLine(for: endpoint))
                ?? HTTPRequest(method: endpoint.method, scheme: nil, authority: nil, path: endpoint.path)
            return TracedCall(operationName: endpoint.operationID, request: request, baseURL: core.baseURL)
        }
        var result: Result<APIResponse<Payload>, APIError<General, Module>>?
        await core.runner.observe(method: endpoint.method, operationID: endpoint.operationID, path: endpoint.path, traced: traced) {
            record in await core.call(endpoint, record: record, result: &result)
        }
        // `observe` always runs `call`; an error is made only if it did not, since making one
        // (its underlying error bridged) costs more than a small call.
        // Consumed: `get()` would copy the response.
        switch consume result {
        case .success(let response)?: return response
        case .failure(let error)?: throw error
        case nil: throw .transport(TransportFailure(.cancelled, underlying: CancellationError()))
        }
    }
}
