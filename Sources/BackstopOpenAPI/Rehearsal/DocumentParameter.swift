/// A path or query parameter of an operation, as a server checks what a request sends for it.
package struct DocumentParameter: Sendable {
    package enum Location: String, Sendable {
        case path, query
    }

    /// The JSON type the parameter's schema gives, as far as a single value in a URL can be checked.
    package enum Kind: String, Sendable {
        case integer, number, boolean, string, any
    }

    package var name: String
    package var location: Location
    package var required: Bool
    package var kind: Kind
    /// The values a string enum allows; empty when any value will do.
    package var allowed: [String]
    /// An array of values (`?tag=a&tag=b`, or `a,b`): each is checked.
    package var isList: Bool

    /// Why `value` does not fit the parameter, in a server's words; `nil` when it fits.
    package func problem(with value: String) -> String? {
        let values = isList ? value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [value]
        for value in values {
            switch kind {
            case .integer where Int64(value) == nil: return "\(location.rawValue) parameter \(name) must be an integer, not '\(value)'"
            case .number where Double(value).map(\.isFinite) != true:
                return "\(location.rawValue) parameter \(name) must be a number, not '\(value)'"
            case .boolean where value != "true" && value != "false":
                return "\(location.rawValue) parameter \(name) must be true or false, not '\(value)'"
            default: break
            }
            if !allowed.isEmpty, !allowed.contains(value) {
                return "\(location.rawValue) parameter \(name) must be one of \(allowed.joined(separator: ", ")), not '\(value)'"
            }
        }
        return nil
    }
}
