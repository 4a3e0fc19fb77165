/// The payload of an endpoint that returns none: a 204, or an envelope without data.
///
/// Unwrapping as `NoPayload` never looks at the payload path, so an absent, `null` or
/// unexpected payload is fine.
public struct NoPayload: Decodable, Sendable, Hashable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
}
