import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Following redirects by a ``RedirectPolicy``, above the transport, so that every transport
/// follows the same rules; see ``RedirectPolicy`` for them.
enum Redirects {
    /// Sends `request` with `send`, then each redirect its answers ask for that `policy`
    /// follows; answers the first response that is not followed.
    ///
    /// `body` must be replayable: a 307 or 308 sends it again.
    static func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, policy: RedirectPolicy,
        send: CallContext.Send
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        var body = body
        var baseURL = baseURL
        var hops = 0
        while true {
            let (response, responseBody) = try await send(request, body, baseURL, operationID)
            guard hops < policy.maximumRedirects,
                let hop = next(after: response, request: request, body: body, baseURL: baseURL, policy: policy)
            else { return (response, responseBody) }
            // Dropping the redirect's body unread ends its reading.
            hops += 1
            (request, body, baseURL) = hop
        }
    }

    /// The request a redirect `response` leads to, if `policy` follows it.
    static func next(
        after response: HTTPResponse, request: HTTPRequest, body: HTTPBody?, baseURL: URL, policy: RedirectPolicy
    ) -> (HTTPRequest, HTTPBody?, URL)? {
        let status = response.status.code
        guard [301, 302, 303, 307, 308].contains(status), let location = response.headerFields[.location],
            let current = url(of: request, baseURL: baseURL),
            let target = URL(string: location, relativeTo: current)?.absoluteURL,
            let from = Origin(current), let to = Origin(target), let toBaseURL = to.baseURL
        else { return nil }
        if from != to {
            // Never from https to anything weaker, whatever the policy.
            guard policy.crossOrigin == .followWithoutCredentials, !(from.scheme == "https" && to.scheme != "https") else {
                return nil
            }
        }
        var next = request
        var nextBody = body
        let becomesGet = status == 303 || ((status == 301 || status == 302) && request.method == .post)
        if becomesGet && request.method != .head {
            next.method = .get
            nextBody = nil
            next.headerFields[.contentType] = nil
            next.headerFields[.contentLength] = nil
        }
        if from != to {
            let kept = Set(RedirectPolicy.crossOriginHeaderFields)
            next.headerFields = HTTPFields(next.headerFields.filter { kept.contains($0.name) })
        }
        guard let components = URLComponents(url: target, resolvingAgainstBaseURL: false) else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        next.path = components.percentEncodedQuery.map { path + "?" + $0 } ?? path
        return (next, nextBody, toBaseURL)
    }

    /// The URL `request` goes to, joined to `baseURL` as the transports join them.
    private static func url(of request: HTTPRequest, baseURL: URL) -> URL? {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let path = URLComponents(string: request.path ?? "")
        else { return nil }
        components.percentEncodedPath += path.percentEncodedPath
        components.percentEncodedQuery = path.percentEncodedQuery
        return components.url
    }
}
