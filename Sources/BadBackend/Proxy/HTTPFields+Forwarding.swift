import Foundation
import HTTPTypes

#if BadBackend && OpenAPI
    import Hummingbird
    import NIOHTTP1
#else
    #error(
        "BadBackend needs Backstop's BadBackend and OpenAPI traits: .package(name: \"Backstop\", …, traits: [\"BadBackend\", \"OpenAPI\"])")
#endif

extension HTTPFields {
    /// The headers the proxy forwards upstream: all as sent except hop-by-hop ones (RFC 9110
    /// 7.6.1, those `Connection` names too), `Host` and `Content-Length`, which the upstream
    /// client sets for the upstream and the body it sends, `Expect`, which the proxy has already
    /// answered, and `Backstop-Scenario`, which is the proxy's. `Accept-Encoding` is left out
    /// too when `identityOnly`, so an answer the proxy dirties comes uncompressed.
    func forwardedUpstream(identityOnly: Bool) -> HTTPHeaders {
        var dropped = Self.hopByHop.union(["host", "content-length", "expect", "backstop-scenario"])
        if identityOnly { dropped.insert("accept-encoding") }
        dropped.formUnion(connectionOptions)
        var headers = HTTPHeaders()
        for field in self where !dropped.contains(field.name.canonicalName) {
            headers.add(name: field.name.rawName, value: field.value)
        }
        return headers
    }

    /// The names `Connection` lists, lowercased: hop-by-hop for this connection only.
    private var connectionOptions: Set<String> {
        Set(self[values: .connection].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }

    /// Hop-by-hop headers: about one connection, never forwarded.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "proxy-authenticate",
        "proxy-authorization",
    ]
}

extension HTTPHeaders {
    /// The upstream's headers as the proxy passes them back: all but hop-by-hop ones and
    /// `Content-Length`, which the proxy sets for the body it sends. A name HTTP does not
    /// allow is left out.
    var passedBack: HTTPFields {
        let options = Set(
            self["connection"].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        var fields = HTTPFields()
        for (name, value) in self {
            let lowered = name.lowercased()
            guard !HTTPFields.hopByHop.contains(lowered), lowered != "content-length", !options.contains(lowered),
                let fieldName = HTTPField.Name(name)
            else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return fields
    }
}
