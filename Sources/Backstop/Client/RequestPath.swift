import Foundation

/// The path and query of a request line, as the transports join it to a base URL.
enum RequestPath {
    /// What a path may hold, plus `%`: escapes are kept as written.
    private static let allowed: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert("%")
        return allowed
    }()

    /// `/path?query`, percent-encoded; `nil` when it makes no URL with `baseURL`.
    ///
    /// Characters a path may not hold are encoded; `%` escapes are kept as written, so a
    /// malformed one (`100%zz`) makes no URL. `baseURLHasHost` is whether `baseURL` has a host,
    /// which the caller reads once rather than on every call.
    static func make(_ path: String, query: [URLQueryItem], baseURL: URL, baseURLHasHost: Bool) -> String? {
        let relative = path.hasPrefix("/") ? path : "/" + path
        // Most paths hold only characters a path may hold as written; such a path joins any base
        // with a host into a URL, so the Foundation round trips below (several µs) are skipped.
        if query.isEmpty, relative.utf8.allSatisfy(isPlainPathByte), baseURLHasHost { return relative }
        var text = relative.addingPercentEncoding(withAllowedCharacters: allowed) ?? relative
        if !query.isEmpty {
            var components = URLComponents()
            components.queryItems = query
            // `+` in a value would read as a space on many servers.
            text += "?" + (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        }
        // Joined as URLSessionTransport joins them, so what passes here passes there.
        guard hasValidEscapes(text), let components = URLComponents(string: text),
            var base = URLComponents(url: baseURL, resolvingAgainstBaseURL: true), base.host != nil
        else { return nil }
        base.percentEncodedPath += components.percentEncodedPath
        base.percentEncodedQuery = components.percentEncodedQuery
        return base.url == nil ? nil : text
    }

    /// Why `endpoint`'s path must not be sent: a path parameter, or a segment, that is `.` or
    /// `..` (percent-encoded or not), which servers and URLSession resolve to another route.
    static func refusal<Payload, Module>(of endpoint: Endpoint<Payload, Module>) -> ClientFailure? {
        if let name = endpoint.dotSegmentParameter {
            return ClientFailure(
                .invalidURL,
                detail: "the path parameter \"\(name)\" of \(endpoint.operationID) is a dot-segment (. or ..), which would change the route"
            )
        }
        return dotSegment(in: endpoint.path).map { refusal($0, of: endpoint.operationID) }
    }

    /// The failure that refuses `operation`'s path for its dot-segment `segment`.
    static func refusal(_ segment: Substring, of operation: String) -> ClientFailure {
        ClientFailure(.invalidURL, detail: "the path of \(operation) has the dot-segment \"\(segment)\", which would change the route")
    }

    /// The first segment of `path` (before its query) that is `.` or `..`, also percent-encoded (`%2E`).
    static func dotSegment(in path: String) -> Substring? {
        // Most paths have no dot at all, and none is a dot-segment.
        guard path.utf8.contains(UInt8(ascii: ".")) || path.utf8.contains(UInt8(ascii: "%")) else { return nil }
        let route = path[..<(path.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? path.endIndex)]
        for segment in route.split(separator: "/", omittingEmptySubsequences: true) {
            let decoded = segment.count <= 6 ? segment.replacingOccurrences(of: "%2e", with: ".", options: .caseInsensitive) : ""
            if decoded == "." || decoded == ".." { return segment }
        }
        return nil
    }

    /// Whether every `%` starts an escape of two hex digits, as RFC 3986 requires; some
    /// Foundations let a stray one through to the server.
    private static func hasValidEscapes(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return false }
                index += 3
            } else {
                index += 1
            }
        }
        return true
    }

    /// RFC 3986's `pchar` and `/`, without `%`: bytes a path holds as they are.
    private static func isPlainPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: ":"),
            UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
