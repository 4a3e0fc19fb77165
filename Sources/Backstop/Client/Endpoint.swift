import Foundation
import HTTPTypes

/// One call to a backend: the request, the payload it answers and the module codes it may fail with.
///
/// ```swift
/// let join = Endpoint<StudyGroup, StudyGroupCode>(.post, "groups/join", body: JoinRequest(code: "X7"))
/// let group = try await client.send(join)
/// ```
///
/// Anything left `nil` takes the client's setting. The path is relative to the client's
/// base URL; query items are percent-encoded by the client.
public struct Endpoint<Payload: Decodable & Sendable, Module: ServerCode>: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// Relative to the client's base URL; characters a path may not hold are percent-encoded.
    public var path: String
    /// Percent-encoded by the client, `+` included.
    public var query: [URLQueryItem]
    /// Sent as given; `Accept` and `Content-Type` are filled in when absent.
    public var headerFields: HTTPFields
    /// Encoded when the call is made; `nil` sends no body.
    public var body: RequestBody?
    /// The contract for this endpoint alone, such as an old API without envelopes.
    public var contract: (any ResponseContract)?
    /// How long the whole call may take, retries and backoff included; `nil` takes the
    /// pipeline's ``ClientPipeline/timeout``.
    public var timeout: Duration?
    /// The retry rules for this endpoint, instead of the pipeline's ``ClientPipeline/retry``;
    /// ``RetryPolicy/never`` turns retries off.
    public var retry: RetryPolicy?
    /// Whether sending it twice is harmless; `nil` decides by the method.
    public var isIdempotent: Bool?
    /// Whether the call carries the credential of the pipeline's ``ClientPipeline/authentication``.
    public var requiresAuthentication: Bool
    /// The redirects this endpoint follows, instead of the pipeline's ``ClientPipeline/redirects``;
    /// ``RedirectPolicy/followingOtherOrigins`` lets it follow one to another origin, without credentials.
    public var redirects: RedirectPolicy?
    /// Whether its answers are saved and may stand in for its failures, instead of what its
    /// method decides (a GET is, any other method is not); see ``SavedAnswers``.
    public var savedAnswers: SavedAnswerRule?
    /// A name for logs, metrics and traces, which group by it: `POST groups/join` unless given.
    ///
    /// The default is bounded, one name per route however many identifiers pass through it:
    /// the method and the path template when the endpoint was made from one
    /// (`GET groups/{id}`), otherwise the method and the path with the segments that look like
    /// identifiers written `{id}`: numbers, UUIDs, 16 or more hex digits, anything with `@`,
    /// 20 or more letters, and tokens of 20 or more characters with a digit.
    public var operationID: String
    /// The path parameter whose value was `.` or `..`, for the error that refuses the call.
    var dotSegmentParameter: String?

    /// An endpoint; every argument after the path keeps the client's setting when left out.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: Relative to the client's base URL; a template such as `groups/{id}` when
    ///     `pathParameters` fills it.
    ///   - pathParameters: The values of the template's `{name}`s, each percent-encoded as one
    ///     segment (a `/` in a value cannot add one); a name without a value stays as written.
    ///     A value of `.` or `..` would change the route: the call is refused before anything is
    ///     sent, as `.client` `invalidURL` naming the parameter.
    ///   - query: Query items, percent-encoded by the client.
    ///   - headerFields: Sent as given; `Accept` and `Content-Type` are filled in when absent.
    ///   - body: Encoded when the call is made; `nil` sends no body.
    ///   - contract: This endpoint's own contract; `nil` takes the client's.
    ///   - timeout: How long the whole call may take; `nil` takes the pipeline's.
    ///   - retry: This endpoint's retry rules; `nil` takes the pipeline's.
    ///   - isIdempotent: Whether sending it twice is harmless; `nil` decides by the method.
    ///   - requiresAuthentication: Whether the call carries the session's credential.
    ///   - redirects: This endpoint's redirect rules; `nil` takes the pipeline's.
    ///   - savedAnswers: Whether its answers are saved and answered from the store; `nil`
    ///     decides by the method.
    ///   - operationID: A name for logs, metrics and traces; bounded unless given (see ``operationID``).
    public init(
        _ method: HTTPRequest.Method,
        _ path: String,
        pathParameters: [String: String] = [:],
        query: [URLQueryItem] = [],
        headerFields: HTTPFields = [:],
        body: RequestBody? = nil,
        contract: (any ResponseContract)? = nil,
        timeout: Duration? = nil,
        retry: RetryPolicy? = nil,
        isIdempotent: Bool? = nil,
        requiresAuthentication: Bool = true,
        redirects: RedirectPolicy? = nil,
        savedAnswers: SavedAnswerRule? = nil,
        operationID: String? = nil
    ) {
        self.method = method
        (self.path, dotSegmentParameter) = OperationName.filling(path, with: pathParameters)
        self.query = query
        self.headerFields = headerFields
        self.body = body
        self.contract = contract
        self.timeout = timeout
        self.retry = retry
        self.isIdempotent = isIdempotent
        self.requiresAuthentication = requiresAuthentication
        self.redirects = redirects
        self.savedAnswers = savedAnswers
        self.operationID =
            operationID
            ?? (path.contains("{") ? "\(method.rawValue) \(path)" : OperationName.bounded(method.rawValue, path))
    }

    /// An endpoint whose body is `body` encoded as JSON; the other parameters are the first initializer's.
    public init<Body: Encodable & Sendable>(
        _ method: HTTPRequest.Method,
        _ path: String,
        pathParameters: [String: String] = [:],
        query: [URLQueryItem] = [],
        headerFields: HTTPFields = [:],
        body: Body,
        contract: (any ResponseContract)? = nil,
        timeout: Duration? = nil,
        retry: RetryPolicy? = nil,
        isIdempotent: Bool? = nil,
        requiresAuthentication: Bool = true,
        redirects: RedirectPolicy? = nil,
        savedAnswers: SavedAnswerRule? = nil,
        operationID: String? = nil
    ) {
        self.init(
            method, path, pathParameters: pathParameters, query: query, headerFields: headerFields, body: .json(body), contract: contract,
            timeout: timeout, retry: retry, isIdempotent: isIdempotent,
            requiresAuthentication: requiresAuthentication, redirects: redirects, savedAnswers: savedAnswers,
            operationID: operationID)
    }
}
