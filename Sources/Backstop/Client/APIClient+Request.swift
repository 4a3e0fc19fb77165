import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIClient.Core {
    /// The request line and body of `endpoint`, or the `.client` error that keeps it from being made.
    func makeRequest<Payload, Module>(
        for endpoint: Endpoint<Payload, Module>
    ) throws(APIError<General, Module>) -> (HTTPRequest, HTTPBody?) {
        var request = try requestLine(for: endpoint)
        guard let body = endpoint.body else { return (request, nil) }
        do {
            let encoded = try body.encoded()
            if request.headerFields[.contentType] == nil { request.headerFields[.contentType] = encoded.contentType }
            return (request, HTTPBody(encoded.data))
        } catch {
            throw .client(
                ClientFailure(
                    .unencodableBody, detail: "the body of \(endpoint.operationID) could not be encoded: \(error)",
                    underlying: error))
        }
    }

    /// The request line and header fields of `endpoint` without its body (no `Content-Type`):
    /// what a trace needs of a call, or the `.client` error that keeps it from being made.
    func requestLine<Payload, Module>(
        for endpoint: Endpoint<Payload, Module>
    ) throws(APIError<General, Module>) -> HTTPRequest {
        if let refused = RequestPath.refusal(of: endpoint) { throw .client(refused) }
        guard let path = RequestPath.make(endpoint.path, query: endpoint.query, baseURL: baseURL, baseURLHasHost: baseURLHasHost) else {
            throw .client(ClientFailure(.invalidURL, detail: "\"\(endpoint.path)\" relative to \(baseURL.absoluteString) makes no URL"))
        }
        var request = HTTPRequest(method: endpoint.method, scheme: nil, authority: nil, path: path, headerFields: endpoint.headerFields)
        if request.headerFields[.accept] == nil { request.headerFields[.accept] = "application/json" }
        return request
    }
}
