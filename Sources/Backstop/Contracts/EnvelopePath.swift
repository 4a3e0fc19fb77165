import BackstopJSON

/// Where a value sits in an envelope, as object member names from the root: `result.data`.
///
/// Written as a string literal with dots between names; a name that itself contains a dot
/// needs ``init(_:)``. The empty path is the whole body.
public struct EnvelopePath: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The member names, outermost first.
    public var members: [String]

    /// A path of member names, outermost first; names may contain dots.
    public init(_ members: [String]) {
        self.members = members
    }

    /// `"result.data"` is `["result", "data"]`; `""` is the whole body.
    public init(stringLiteral path: String) {
        members = path.isEmpty ? [] : path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The whole body.
    public static let root = EnvelopePath([])

    /// The path as a JSON path, the form repairs and decoding failures use: `$.result.data`.
    public var jsonPath: String {
        JSONPath.string(members.map(MemberKey.init))
    }

    /// `result.data`, or `$` for the whole body.
    public var description: String {
        members.isEmpty ? "$" : members.joined(separator: ".")
    }
}

private struct MemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
