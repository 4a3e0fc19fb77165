/// Renders coding paths as JSON paths (`$.items[1].id`), the form every ``Repair`` uses.
public enum JSONPath {
    /// The JSON path of a coding path; `$` for the root.
    public static func string(_ codingPath: [any CodingKey]) -> String {
        string(codingPath.map { .key($0) })
    }

    /// The JSON path of `components`, then `key`: the one place paths become text.
    static func string(_ components: [PathComponent], appending key: (any CodingKey)? = nil) -> String {
        var path = "$"
        for component in components { append(component, to: &path) }
        if let key { append(.key(key), to: &path) }
        return path
    }

    private static func append(_ component: PathComponent, to path: inout String) {
        if let position = component.arrayPosition {
            path += "["
            path += String(position)
            path += "]"
        } else if case .key(let key) = component {
            appendMember(key.stringValue, to: &path)
        }
    }

    private static func appendMember(_ name: String, to path: inout String) {
        if isIdentifier(name) {
            path += "."
            path += name
        } else {
            path += "['"
            path += name.replacingOccurrences("\\", with: "\\\\").replacingOccurrences("'", with: "\\'")
            path += "']"
        }
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
        }
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
