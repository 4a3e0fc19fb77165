import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIClient {
    /// The request line and body of `endpoint`, or the `.client` error that keeps it from being made.
    func makeRequest<Payload, Module>(
        for endpoint: Endpoint<Payload, Module>
    ) throws(APIError<General, Module>) -> (HTTPRequest, HTTPBody?) {
        let path = try Self.requestPath(endpoint.path, query: endpoint.query, baseURL: baseURL, throwing: APIError<General, Module>.self)
        var request = HTTPRequest(method: endpoint.method, scheme: nil, authority: nil, path: path, headerFields: endpoint.headerFields)
        if request.headerFields[.accept] == nil { request.headerFields[.accept] = "application/json" }
        guard let body = endpoint.body else { return (request, nil) }
        do {
            let encoded = try body.encoded()
            if request.headerFields[.contentType] == nil { request.headerFields[.contentType] = encoded.contentType }
            return (request, HTTPBody(encoded.data))
        } catch {
            throw .client(ClientFailure(.unencodableBody, detail: "the body of \(endpoint.operationID) could not be encoded: \(error)",
                                        underlying: error))
        }
    }

    /// `/path?query`, percent-encoded, as the transports join it to the base URL.
    ///
    /// Characters a path may not hold are encoded; `%` escapes are kept as written, so a
    /// malformed one (`100%zz`) makes no URL.
    static func requestPath<Module>(
        _ path: String, query: [URLQueryItem], baseURL: URL, throwing: APIError<General, Module>.Type
    ) throws(APIError<General, Module>) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert("%")
        let relative = path.hasPrefix("/") ? path : "/" + path
        var text = relative.addingPercentEncoding(withAllowedCharacters: allowed) ?? relative
        if !query.isEmpty {
            var components = URLComponents()
            components.queryItems = query
            // `+` in a value would read as a space on many servers.
            text += "?" + (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        }
        // Joined as URLSessionTransport joins them, so what passes here passes there.
        if Self.hasValidEscapes(text), let components = URLComponents(string: text),
           var base = URLComponents(url: baseURL, resolvingAgainstBaseURL: true), base.host != nil {
            base.percentEncodedPath += components.percentEncodedPath
            base.percentEncodedQuery = components.percentEncodedQuery
            if base.url != nil { return text }
        }
        throw .client(ClientFailure(.invalidURL, detail: "\"\(path)\" relative to \(baseURL.absoluteString) makes no URL"))
    }

    /// Whether every `%` starts an escape of two hex digits, as RFC 3986 requires; some
    /// Foundations let a stray one through to the server.
    private static func hasValidEscapes(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else { return false }
                index += 3
            } else {
                index += 1
            }
        }
        return true
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
