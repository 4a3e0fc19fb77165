/// A business code exactly as a backend sent it, a number or text.
///
/// Numbers and numeric text are the same code: `200` and `"200"` are equal, and either
/// matches `case ok = 200` as well as `case ok = "200"`. Text that is not a plain decimal
/// number (`"E1001"`, `"007"`) stays text.
public struct RawServerCode: Sendable, Hashable, CustomStringConvertible,
    ExpressibleByIntegerLiteral, ExpressibleByStringLiteral
{
    /// The code as a number, when it is one.
    public let intValue: Int?
    /// The code as text; `"200"` for the number 200.
    public let stringValue: String

    /// A numeric code.
    public init(_ value: Int) {
        intValue = value
        stringValue = String(value)
    }

    /// A code from text; decimal text such as `"200"` becomes the number.
    public init(_ text: String) {
        // Only the canonical spelling is a number, so "007" or "+1" keep their text.
        if let number = Int(text), String(number) == text { intValue = number } else { intValue = nil }
        stringValue = text
    }

    public init(integerLiteral value: Int) { self.init(value) }
    public init(stringLiteral value: String) { self.init(value) }

    /// The number, or the text quoted with its control and bidirectional characters escaped
    /// and cut after 40 characters, so a code from the network keeps a log line to one short line.
    public var description: String {
        if let intValue { return String(intValue) }
        // Quotes inside are escaped too, so the code's end is where the last quote is.
        return "\"" + OneLine.text(stringValue, limit: 40).replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.stringValue == rhs.stringValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(stringValue) }
}
