import Foundation
import HTTPTypes
import OpenAPIRuntime

/// What a ``StubTransport`` answers one request with: a response, or an error thrown as the
/// transport's, either after an optional delay.
public struct StubResponse: Sendable {
    enum Outcome: Sendable {
        case response(HTTPResponse, Data?)
        case failure(any Error & Sendable)
    }

    let outcome: Outcome
    /// How long after the request arrived the answer comes, on the transport's clock.
    public private(set) var delay: Duration = .zero

    /// A response with `status`, `headerFields` and `body` as given.
    ///
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - headerFields: The response's header fields, such as `Retry-After`.
    ///   - body: The body's bytes; `nil` for none.
    public init(status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], body: Data? = nil) {
        outcome = .response(HTTPResponse(status: status, headerFields: headerFields), body)
    }

    private init(failure: any Error & Sendable) {
        outcome = .failure(failure)
    }

    /// A JSON body as written, `Content-Type: application/json`, with `status` (200 unless given).
    ///
    /// - Parameters:
    ///   - text: The body, sent as its UTF-8 bytes: it may be broken JSON, on purpose.
    ///   - status: The HTTP status.
    ///   - headerFields: More header fields.
    public static func json(_ text: String, status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:]) -> StubResponse {
        var fields = headerFields
        fields[.contentType] = "application/json"
        return StubResponse(status: status, headerFields: fields, body: Data(text.utf8))
    }

    /// A response with `status` and no body.
    ///
    /// - Parameters:
    ///   - status: The HTTP status, such as `.serviceUnavailable`.
    ///   - headerFields: The response's header fields, such as `Retry-After`.
    public static func status(_ status: HTTPResponse.Status, headerFields: HTTPFields = [:]) -> StubResponse {
        StubResponse(status: status, headerFields: headerFields)
    }

    /// No response: `error` is thrown as the transport's own, such as
    /// `URLError(.notConnectedToInternet)` (offline) or `URLError(.timedOut)`.
    ///
    /// - Parameter error: What the transport throws.
    public static func failure(_ error: any Error & Sendable) -> StubResponse {
        StubResponse(failure: error)
    }

    /// This answer, `delay` after the request arrived on the transport's clock.
    ///
    /// - Parameter delay: How long the answer waits; it replaces an earlier delay.
    public func delayed(by delay: Duration) -> StubResponse {
        var delayed = self
        delayed.delay = delay
        return delayed
    }

    func answer() throws -> (HTTPResponse, HTTPBody?) {
        switch outcome {
        case .response(let response, let body): (response, body.map { HTTPBody($0) })
        case .failure(let error): throw error
        }
    }
}
