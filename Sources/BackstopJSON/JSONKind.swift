/// The kind of a JSON value, as it appears in a document or as it was found in a repair.
public enum JSONKind: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The key was not in the object at all.
    case missing
    /// The value was `null`.
    case null
    /// `true` or `false`.
    case bool
    /// A number, whole or not.
    case number
    /// A string.
    case string
    /// An array.
    case array
    /// An object.
    case object

    public var description: String { rawValue }
}
