import Foundation

/// The default operation name of an endpoint: bounded, so logs, metrics and traces that group
/// by it get one series per route, not one per identifier.
package enum OperationName {
    /// The placeholder that stands for an identifier in a path without a template.
    static let placeholder = "{id}"

    /// `GET groups/{id}/members` for `groups/42/members`: segments that look like identifiers
    /// (see ``isIdentifierLike(_:)``) are replaced by ``placeholder``.
    package static func bounded(_ method: String, _ path: String) -> String {
        var name = method + " "
        var first = true
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            if !first { name += "/" }
            first = false
            name += isIdentifierLike(segment) ? placeholder : String(segment)
        }
        return name
    }

    /// Whether a path segment is an identifier rather than part of the route:
    /// - digits only (`42`);
    /// - a UUID (`3F2504E0-4F89-11D3-9A0C-0305E82C3301`);
    /// - 16 or more hex digits (`5f3a9c0e1b2d4f6a`);
    /// - anything with `@` (`alice@example.com`, `%40` too);
    /// - 20 or more letters only (`AbCdEfGhIjKlMnOpQrStUvWxYz`), or 20 or more letters, digits
    ///   and `-_.~=%` with a digit among them (`eyJhbGciOiJIUzI1NiJ9`).
    ///
    /// A route word of 20 letters or more (`internationalization`) is taken for an identifier
    /// too: give such an endpoint a template or an operation ID.
    static func isIdentifierLike(_ segment: Substring) -> Bool {
        let bytes = segment.utf8
        guard !bytes.isEmpty else { return false }
        if bytes.allSatisfy(isDigit) { return true }
        if bytes.contains(UInt8(ascii: "@")) || segment.range(of: "%40", options: .caseInsensitive) != nil { return true }
        if bytes.count == 36, UUID(uuidString: String(segment)) != nil { return true }
        if bytes.count >= 16, bytes.allSatisfy(isHexDigit) { return true }
        if bytes.count >= 20, bytes.allSatisfy(isLetter) { return true }
        if bytes.count >= 20, bytes.contains(where: isDigit), bytes.allSatisfy(isTokenByte) { return true }
        return false
    }

    /// `template` with each `{name}` replaced by its value, percent-encoded so that a value
    /// cannot add a segment (`/` becomes `%2F`); a name without a value stays as written.
    ///
    /// `dotSegment` is the first parameter whose value is `.` or `..`, which would change the
    /// route (`users/{id}/sessions` with `..` is `/sessions` to most servers): the request is
    /// refused before it is sent.
    static func filling(_ template: String, with values: [String: String]) -> (path: String, dotSegment: String?) {
        guard !values.isEmpty, template.contains("{") else { return (template, nil) }
        var result = ""
        var dotSegment: String?
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            if let value = values[name] {
                if dotSegment == nil, value == "." || value == ".." { dotSegment = name }
                result += value.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? value
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return (result + rest, dotSegment)
    }

    private static let segmentAllowed: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/%")
        return allowed
    }()

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || "-_.~=%".utf8.contains(byte)
    }
}
