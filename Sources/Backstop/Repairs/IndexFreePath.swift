/// A JSON path with its array indices written `[*]`: `$.data[17].id` is `$.data[*].id`, so
/// every element's defect groups under one name.
enum IndexFreePath {
    static func of(_ path: String) -> String {
        var result = ""
        var index = path.startIndex
        while index < path.endIndex {
            let character = path[index]
            if character == "[", let close = path[index...].firstIndex(of: "]"),
                path.index(after: index) < close, path[path.index(after: index)..<close].allSatisfy(\.isASCIIDigit)
            {
                result += "[*]"
                index = path.index(after: close)
            } else {
                result.append(character)
                index = path.index(after: index)
            }
        }
        return result
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
