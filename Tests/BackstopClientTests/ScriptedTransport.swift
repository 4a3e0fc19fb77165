import Backstop
import BackstopJSON
import BackstopTestSupport
import BadBackend
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport in memory: every request gets what `answer` makes of it, with no network, so a
/// stage's rules are proven where they live, beside the loopback suites.
struct ScriptedTransport: ClientTransport {
    let answer: @Sendable (HTTPRequest) async throws -> (HTTPResponse, HTTPBody?)

    init(_ answer: @escaping @Sendable (HTTPRequest) async throws -> (HTTPResponse, HTTPBody?)) {
        self.answer = answer
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        try await answer(request)
    }

    /// A JSON answer with `status`.
    static func json(_ status: HTTPResponse.Status, _ text: String = "{}") -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: status, headerFields: [.contentType: "application/json"]), HTTPBody(text))
    }

    /// A client of no real host, whose calls go through `pipeline` to `answer`; no envelope.
    static func client(
        _ pipeline: ClientPipeline, _ answer: @escaping @Sendable (HTTPRequest) async throws -> (HTTPResponse, HTTPBody?)
    ) -> APIClient<GeneralCode> {
        APIClient<GeneralCode>(
            baseURL: URL(string: "https://backstop.invalid")!, decoder: ResilientJSONDecoder(), pipeline: pipeline,
            transport: ScriptedTransport(answer))
    }
}
