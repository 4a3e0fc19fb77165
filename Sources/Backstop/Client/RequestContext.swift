import BackstopJSON
import Foundation
import HTTPTypes

/// What one call through ``APIClient`` tells the middlewares that serve it, and what they
/// tell each other, bound to the call's task.
///
/// Middlewares only see HTTP; the client knows the endpoint and, after decoding, the
/// outcome. The client binds a context for the call; middlewares read the endpoint's
/// choices from it and record attempts and retries in it; logging and metrics register
/// to hear the outcome once the body is decoded. In an OpenAPI-generated client there is
/// no ``APIClient``, so the outermost Backstop middleware binds a context itself.
final class RequestContext: @unchecked Sendable {
    @TaskLocal static var current: RequestContext?

    /// The endpoint's own retry rules, if it has them.
    let retryPolicy: RetryPolicy?
    /// Whether the endpoint said sending it twice is harmless.
    let isIdempotent: Bool?
    let requiresAuthentication: Bool
    /// Reads business codes from a response for middlewares that act on their roles.
    let classifier: ServerCodeClassifier?
    /// Whether the client reports the outcome itself, after decoding.
    let reportsOutcome: Bool

    private let lock = NSLock()
    private var _attempts = 0
    private var _retries: [String] = []
    private var _secrets: [String] = []
    private var observers: [@Sendable (RequestOutcome, RequestContext) -> Void] = []
    /// The last response body a middleware parsed to read its business code.
    private var _parsedBody: (data: Data, json: ParsedJSON)?
    private var completed = false

    init(retryPolicy: RetryPolicy? = nil, isIdempotent: Bool? = nil, requiresAuthentication: Bool = true,
         classifier: ServerCodeClassifier? = nil, reportsOutcome: Bool = false) {
        self.retryPolicy = retryPolicy
        self.isIdempotent = isIdempotent
        self.requiresAuthentication = requiresAuthentication
        self.classifier = classifier
        self.reportsOutcome = reportsOutcome
    }

    /// How many times the request reached the transport.
    var attempts: Int { lock.withLock { _attempts } }
    /// Why each retry was made (`status.503`, `transport.timedOut`, `server.rateLimited`).
    var retries: [String] { lock.withLock { _retries } }

    /// Values logs must never show, added by middlewares that put them in the request,
    /// such as an authenticator's token.
    var secrets: [String] { lock.withLock { _secrets } }
    func addSecret(_ value: String) {
        guard !value.isEmpty else { return }
        lock.withLock { _secrets.append(value) }
    }

    /// `body` as parsed by an earlier reader of the same response, read with `decoder`; `nil`
    /// when nobody parsed these bytes with `decoder`'s policy.
    func parsedBody(_ body: Data, decoder: ResilientJSONDecoder) -> ParsedJSON? {
        // Comparing bytes costs a fraction of parsing them again.
        guard let parsed = lock.withLock({ _parsedBody }), parsed.data == body else { return nil }
        return parsed.json.reading(with: decoder)
    }

    /// Keeps a parsed response body for the readers after this one; a later attempt's body replaces it.
    func keepParsedBody(_ body: Data, _ json: ParsedJSON) {
        lock.withLock { _parsedBody = (body, json) }
    }

    func recordAttempt() { lock.withLock { _attempts += 1 } }
    func recordRetry(reason: String) { lock.withLock { _retries.append(reason) } }

    /// Calls `observer` once when the call ends, with this context.
    ///
    /// The context is handed to the observer rather than captured by it: an observer kept here
    /// that held its context would keep both, and the parsed body, alive after the call.
    func onCompletion(_ observer: @escaping @Sendable (RequestOutcome, RequestContext) -> Void) {
        lock.withLock { observers.append(observer) }
    }

    /// Whether anyone waits to hear the outcome.
    var hasObservers: Bool { lock.withLock { !observers.isEmpty } }

    /// Ends the call; later calls do nothing.
    func complete(_ outcome: RequestOutcome) {
        let toCall: [@Sendable (RequestOutcome, RequestContext) -> Void] = lock.withLock {
            guard !completed else { return [] }
            completed = true
            defer { observers = [] }
            return observers
        }
        for observer in toCall { observer(outcome, self) }
    }

    /// Runs `body` with the current context, binding a fresh one when the caller has none.
    /// The second value is whether the context is new, so the caller must complete it.
    static func withCurrent<Result>(
        _ body: (RequestContext, Bool) async throws -> Result
    ) async throws -> Result {
        if let current { return try await body(current, false) }
        let context = RequestContext()
        return try await $current.withValue(context) { try await body(context, true) }
    }
}

/// How a call ended, as logging and metrics report it.
struct RequestOutcome: Sendable {
    var method: HTTPRequest.Method
    /// The path with secrets redacted by whoever reports it.
    var path: String
    var operationID: String
    var status: HTTPResponse.Status?
    var duration: Duration
    var attempts: Int
    var retries: [String]
    var repairs: Int
    /// The layer (`transport`, `http`, …), the grouping identifier and the one-line
    /// description of the error, when the call failed.
    var failure: (layer: String, identifier: String, description: String)?
}
