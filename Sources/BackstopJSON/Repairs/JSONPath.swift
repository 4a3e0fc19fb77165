/// Renders coding paths as JSON paths (`$.items[1].id`), the form every ``Repair`` uses.
public enum JSONPath {
    /// The JSON path of a coding path; `$` for the root.
    public static func string(_ codingPath: [any CodingKey]) -> String {
        string(codingPath.map { .key($0) })
    }

    /// The JSON path of `components`, then `key`: the one place paths become text.
    ///
    /// `indexFree` writes every array position as `[*]`, so one field of every element has one path.
    static func string(_ components: [PathComponent], appending key: (any CodingKey)? = nil, indexFree: Bool = false) -> String {
        var path = "$"
        for component in components { append(component, to: &path, indexFree: indexFree) }
        if let key { append(.key(key), to: &path, indexFree: indexFree) }
        return path
    }

    /// `path` with every array position (`[17]`) written `[*]`: `$.data[*].id` for `$.data[17].id`.
    /// Quoted member names (`['a[1]']`) are left as they are.
    package static func indexFree(_ path: String) -> String {
        let bytes = Array(path.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), quoted, index + 1 < bytes.count {
                result.append(byte)
                result.append(bytes[index + 1])
                index += 2
                continue
            }
            if byte == UInt8(ascii: "'") { quoted.toggle() }
            if !quoted, byte == UInt8(ascii: "["), let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "]")), end > index + 1,
                bytes[(index + 1)..<end].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            {
                result.append(contentsOf: "[*]".utf8)
                index = end + 1
            } else {
                result.append(byte)
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func append(_ component: PathComponent, to path: inout String, indexFree: Bool) {
        if let position = component.arrayPosition {
            if indexFree {
                path += "[*]"
                return
            }
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
