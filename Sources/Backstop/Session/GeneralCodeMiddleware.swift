import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Acts on app-wide general codes in one place, before the caller sees its error.
///
/// List it after logging and metrics and before ``RetryMiddleware``, so it sees each call's
/// final answer. When an answer carries a general code whose role is in ``roles`` (in a 200
/// envelope or with an HTTP error), ``events`` hears the role before the answer returns to
/// the caller, who still gets its own error. An episode raises one event however many
/// requests run into it: the role is published again only after an answer without it.
public struct GeneralCodeMiddleware: ClientMiddleware {
    /// The roles the app acts on app-wide.
    public var roles: Set<ServerCodeRole>
    /// Reads business codes; ``APIClient`` provides its own when `nil`.
    public var classifier: ServerCodeClassifier?
    /// The largest response body read to classify.
    public var maximumBodyBytes: Int
    /// One role each time an episode begins, such as `maintenance`; observe it from one place in the app.
    public let events: AsyncStream<ServerCodeRole>

    private let continuation: AsyncStream<ServerCodeRole>.Continuation
    /// The roles whose episode is under way, shared by every copy.
    private let ongoing = LockedValue<Set<ServerCodeRole>>([])

    public init(
        roles: Set<ServerCodeRole> = [.maintenance],
        classifier: ServerCodeClassifier? = nil,
        maximumBodyBytes: Int = APIClient<NoModuleCodes>.defaultMaximumResponseBytes
    ) {
        self.roles = roles
        self.classifier = classifier
        self.maximumBodyBytes = maximumBodyBytes
        (events, continuation) = AsyncStream<ServerCodeRole>.makeStream()
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard let classifier = classifier ?? RequestContext.current?.classifier else { return (response, responseBody) }
        let (role, body) = try await classifier.role(of: response, body: responseBody, upTo: maximumBodyBytes)
        let begins = ongoing.withLock { ongoing -> Bool in
            guard let role, roles.contains(role) else {
                ongoing.removeAll()
                return false
            }
            return ongoing.insert(role).inserted
        }
        if begins, let role { continuation.yield(role) }
        return (response, body)
    }
}
