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
///     contract: EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200])),
///     middlewares: APIClient<AppCode>.standardMiddlewares()
/// )
/// let group: Group = try await client.send(Endpoint<Group, StudyGroupCode>(.get, "groups/42"))
/// ```
///
/// Requests go through swift-openapi-runtime's `ClientMiddleware`s, first to last, then
/// the `ClientTransport` (`URLSessionTransport` unless given). The order is part of the
/// behaviour:
/// 1. ``LoggingMiddleware`` and ``MetricsMiddleware``: one line and one count per call,
///    whatever happens inside.
/// 2. App-wide handling of general codes (such as maintenance), which must see the final
///    outcome of the call, not each attempt.
/// 3. ``RetryMiddleware``: attempts.
/// 4. Authentication: applies the credential to each attempt and refreshes it.
///
/// - A call that outlives the endpoint's timeout (else ``timeout``, if any) ends as
///   `.transport` `timedOut`, and a cancelled task ends it at once as `.transport` `cancelled`.
/// - A response body larger than ``maximumResponseBytes`` is `.client` `responseTooLarge`.
/// - A path that makes no URL, or a body that cannot be encoded, is a `.client` error
///   (`invalidURL`, `unencodableBody`) that names it.
public struct APIClient<General: ServerCode>: Sendable {
    /// 10 MiB: far above any JSON API response, far below what hurts a phone.
    public static var defaultMaximumResponseBytes: Int { 10 << 20 }

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
    /// Run first to last on the way out; see the order above.
    public var middlewares: [any ClientMiddleware]
    /// `URLSessionTransport` unless given.
    public var transport: any ClientTransport
    /// How long a call may take, retries and backoff included, unless its endpoint says otherwise.
    ///
    /// `nil` (the default) leaves each attempt to the transport's own timeout, a minute unless
    /// configured: `URLSessionTransport`'s session's `timeoutIntervalForRequest`, or
    /// `AsyncHTTPClientTransport`'s `timeout`. Either ends the attempt as `.transport`
    /// `timedOut`, which ``RetryMiddleware`` may retry. A timeout here bounds the whole call, at
    /// a cost: each exchange then runs in a child task, so the timeout can cancel it without
    /// cancelling the caller, and the response reaches the caller through that task.
    public var timeout: Duration?
    /// Bodies longer than this fail the call as `.client` `responseTooLarge`.
    public var maximumResponseBytes: Int
    /// Times out the calls that have a ``timeout`` (or an endpoint's); tests pass a `TestClock`.
    public var clock: any Clock<Duration> {
        get { clockAndDeadlines.clock }
        set { clockAndDeadlines = (newValue, makeCallDeadlines(newValue)) }
    }
    /// The clock and the one timer all calls of this client share on it.
    private var clockAndDeadlines: (clock: any Clock<Duration>, deadlines: any CallDeadlines)
    var deadlines: any CallDeadlines { clockAndDeadlines.deadlines }

    public init(
        baseURL: URL,
        contract: any ResponseContract = EnvelopeContract.noEnvelope,
        decoder: ResilientJSONDecoder = ResilientJSONDecoder(reporter: LoggingRepairReporter()),
        middlewares: [any ClientMiddleware] = [],
        transport: any ClientTransport = URLSessionTransport(),
        timeout: Duration? = nil,
        maximumResponseBytes: Int = defaultMaximumResponseBytes,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.baseURL = baseURL
        self.baseURLHasHost = baseURL.absoluteURL.host != nil
        self.contract = contract
        self.decoder = decoder
        self.middlewares = middlewares
        self.transport = transport
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.clockAndDeadlines = (clock, makeCallDeadlines(clock))
    }

    /// Logging, metrics and retry with their defaults, in the order the client expects.
    public static func standardMiddlewares() -> [any ClientMiddleware] {
        [LoggingMiddleware(), MetricsMiddleware(), RetryMiddleware()]
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
        let start = ContinuousClock.now
        let contract = endpoint.contract ?? self.contract
        let context = RequestContext(
            retryPolicy: endpoint.retry, isIdempotent: endpoint.isIdempotent,
            requiresAuthentication: endpoint.requiresAuthentication,
            classifier: ServerCodeClassifier(contract: contract, generalCodes: General.self, decoder: decoder),
            reportsOutcome: true
        )
        var path = endpoint.path
        var status: HTTPResponse.Status?
        let result: Result<APIResponse<Payload>, APIError<General, Module>>
        do throws(APIError<General, Module>) {
            let request = try makeRequest(for: endpoint)
            path = request.0.path ?? endpoint.path
            let timeout = endpoint.timeout ?? timeout
            let exchanged = await RequestContext.$current.withValue(context) {
                do {
                    return Result<(HTTPResponse, Data), APIError<General, Module>>.success(
                        try await exchange(request, operationID: endpoint.operationID, timeout: timeout))
                } catch {
                    return .failure(Self.apiError(for: error))
                }
            }
            let (response, body) = try exchanged.get()
            status = response.status
            // A middleware that read the business code already parsed the body.
            let report = try contract.unwrap(Payload.self, from: body, parsed: context.parsedBody(body, decoder: decoder),
                                             response: response, decoder: decoder, throwing: APIError<General, Module>.self)
            result = .success(APIResponse(status: response.status, headerFields: response.headerFields,
                                          payload: report.value, repairs: report.repairs,
                                          attempts: context.attempts, duration: ContinuousClock.now - start))
        } catch {
            if case .http(let failure) = error { status = failure.status }
            result = .failure(error)
        }
        // Describing the outcome costs more than a cancelled call; only do it for someone.
        if context.hasObservers {
            var outcome = RequestOutcome(method: endpoint.method, path: path, operationID: endpoint.operationID, status: status,
                                         duration: ContinuousClock.now - start, attempts: context.attempts,
                                         retries: context.retries, repairs: 0)
            switch result {
            case .success(let response): outcome.repairs = response.repairs.count
            case .failure(let error): outcome.failure = (error.layer.rawValue, error.groupingIdentifier, error.description)
            }
            context.complete(outcome)
        }
        return try result.get()
    }
}
