import Foundation
import HTTPTypes

extension TracedCall {
    /// The call that sends `request` (its path relative to `baseURL`, as transports join them)
    /// as `operationName`; the URL keeps each query item's name, never its value.
    package init(operationName: String, request: HTTPRequest, baseURL: URL) {
        self.operationName = operationName
        method = request.method
        let base = URLComponents(url: baseURL, resolvingAgainstBaseURL: true)
        let scheme = base?.scheme ?? "https"
        serverAddress = base?.host
        serverPort = base?.port ?? (scheme == "http" ? 80 : 443)
        let target = request.path ?? ""
        let queryStart = target.firstIndex(of: "?")
        let path = target[..<(queryStart ?? target.endIndex)]
        var basePath = base?.percentEncodedPath ?? ""
        if basePath.hasSuffix("/") { basePath.removeLast() }
        var url = "\(scheme)://\(base?.percentEncodedHost ?? "")"
        if let port = base?.port { url += ":\(port)" }
        url += basePath + path
        if let queryStart {
            // Values may be tokens or what the user typed; names say what the request asked for.
            let items = target[target.index(after: queryStart)...].split(separator: "&").map { item in
                (item.split(separator: "=", maxSplits: 1).first ?? "") + "=REDACTED"
            }
            url += "?" + items.joined(separator: "&")
        }
        redactedURL = url
    }
}
