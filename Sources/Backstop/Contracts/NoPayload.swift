/// The payload of an endpoint that returns none: a 204, or an envelope without data.
///
/// Unwrapping as `NoPayload` never looks at the payload path, so an absent, `null` or
/// unexpected payload is fine.
public struct NoPayload: Decodable, Sendable, Hashable {
    /// The empty payload.
    public init() {}
    /// Reads nothing, so any payload, or none, decodes.
    public init(from decoder: any Decoder) throws {}
}
