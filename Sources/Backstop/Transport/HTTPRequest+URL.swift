import Foundation
import HTTPTypes

extension HTTPRequest {
    /// The request's path and query appended to `baseURL`'s, as swift-openapi's transports join
    /// them: what Backstop's transports send to.
    ///
    /// Throws `.client` ``ClientFailure/Reason/invalidURL`` when the two make no URL.
    package func url(relativeTo baseURL: URL) throws(ClientFailure) -> URL {
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
