import Foundation

/// A URL's scheme, host and port: what a redirect must keep for the call's credential to go along.
struct Origin: Hashable {
    let scheme: String
    let host: String
    let port: Int

    /// The origin of `url`, if it is an http or https URL with a host.
    init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.percentEncodedHost?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        port = components.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `scheme://host:port`, to which a request's path is joined.
    var baseURL: URL? {
        var components = URLComponents()
        components.scheme = scheme
        components.percentEncodedHost = host
        components.port = port
        return components.url
    }
}
