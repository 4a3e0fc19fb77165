import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport in memory, as swift-openapi-runtime's own tests keep one: `answer` makes the
/// response to each request. For a stage's own rules, beside the loopback suites.
public struct MockTransport: ClientTransport {
    /// Makes the response to one request.
    public typealias Answer = @Sendable (HTTPRequest, HTTPBody?, URL, String) async throws -> (HTTPResponse, HTTPBody?)

    private let answer: Answer

    /// A transport whose every request `answer` answers.
    public init(_ answer: @escaping Answer) {
        self.answer = answer
    }

    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await answer(request, body, baseURL, operationID)
    }
}
