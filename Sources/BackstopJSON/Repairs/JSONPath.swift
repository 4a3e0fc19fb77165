/// Renders coding paths as JSON paths (`$.items[1].id`), the form every ``Repair`` uses.
public enum JSONPath {
    /// The JSON path of a coding path; `$` for the root.
    public static func string(_ codingPath: [any CodingKey]) -> String {
        var path = "$"
        for key in codingPath { append(key, to: &path) }
        return path
    }

    static func append(_ key: any CodingKey, to path: inout String) {
        if let index = key.intValue, key.stringValue == "Index \(index)" {
            path += "[\(index)]"
        } else {
            appendMember(key.stringValue, to: &path)
        }
    }

    static func appendMember(_ name: String, to path: inout String) {
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
