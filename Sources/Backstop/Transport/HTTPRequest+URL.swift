import Foundation
import HTTPTypes

extension HTTPRequest {
    /// The request's path and query appended to `baseURL`'s, as swift-openapi's transports join
    /// them: what Backstop's transports send to.
    ///
    /// Throws `.client` ``ClientFailure/Reason/invalidURL`` when the two make no URL.
    package func url(relativeTo baseURL: URL) throws(ClientFailure) -> URL {
        // A base with no query or fragment ends with its path, so the join is the two texts one
        // after the other, parsed once: the components' way below parses three times, which cost
        // about 16,000 instructions a call on Linux. A fragment in the path, which that way drops,
        // takes that way.
        if let path, path.hasPrefix("/"), !path.utf8.contains(UInt8(ascii: "#")), baseURL.query == nil, baseURL.fragment == nil,
            let url = URL(string: baseURL.absoluteString + path)
        {
            return url
        }
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let relative = URLComponents(string: path ?? "")
        else { throw invalidURL(relativeTo: baseURL) }
        components.percentEncodedPath += relative.percentEncodedPath
        components.percentEncodedQuery = relative.percentEncodedQuery
        guard let url = components.url else { throw invalidURL(relativeTo: baseURL) }
        return url
    }

    private func invalidURL(relativeTo baseURL: URL) -> ClientFailure {
        ClientFailure(.invalidURL, detail: "\(path ?? "") relative to \(baseURL.absoluteString) makes no URL")
    }
}
