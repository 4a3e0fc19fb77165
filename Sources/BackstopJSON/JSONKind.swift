/// The kind of a JSON value, as it appears in a document or as it was found in a repair.
public enum JSONKind: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The key was not in the object at all.
    case missing
    case null
    case bool
    case number
    case string
    case array
    case object

    public var description: String { rawValue }
}
