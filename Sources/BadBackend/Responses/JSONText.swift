/// A JSON value with members in the order written, so answers are byte-for-byte repeatable.
///
/// BadBackend builds every body with this rather than an encoder: dirty data needs exact
/// control over what is a string, what is `null` and what is left out.
enum JSONText: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONText])
    case object([(String, JSONText)])
    /// JSON text already known to be valid, sent as it came: an echoed request body.
    case verbatim(String)

    static func int(_ value: Int) -> JSONText { .number(String(value)) }
    static func double(_ value: Double) -> JSONText { .number(String(value)) }

    /// The value as compact JSON.
    var rendered: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let digits): digits
        case .verbatim(let json): json
        case .string(let text): Self.quoted(text)
        case .array(let elements): "[" + elements.map(\.rendered).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { Self.quoted($0.0) + ":" + $0.1.rendered }.joined(separator: ",") + "}"
        }
    }

    static func == (lhs: JSONText, rhs: JSONText) -> Bool { lhs.rendered == rhs.rendered }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
