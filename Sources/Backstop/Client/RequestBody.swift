import Foundation

/// The body an ``Endpoint`` sends, encoded when the request is made.
///
/// Encoding is deferred so that a body that cannot be encoded becomes a
/// ``ClientFailure/Reason/unencodableBody`` error of the call, never a crash.
public struct RequestBody: Sendable {
    /// The encoded bytes and their `Content-Type`.
    public typealias Encoded = (data: Data, contentType: String)

    private let encode: @Sendable () throws -> Encoded

    /// A body made by `encode`; an error it throws fails the call as ``ClientFailure/Reason/unencodableBody``.
    public init(_ encode: @escaping @Sendable () throws -> Encoded) {
        self.encode = encode
    }

    /// `value` as JSON (`application/json`).
    public static func json<Value: Encodable & Sendable>(_ value: Value, encoder: JSONEncoder = JSONEncoder()) -> Self {
        // JSONEncoder is not Sendable; a copy made here is only ever used by this body.
        let box = EncoderBox(encoder)
        return Self { (try box.encoder.encode(value), "application/json") }
    }

    /// Bytes sent as they are.
    public static func data(_ data: Data, contentType: String) -> Self {
        Self { (data, contentType) }
    }

    func encoded() throws -> Encoded { try encode() }
}

private final class EncoderBox: @unchecked Sendable {
    let encoder: JSONEncoder
    init(_ encoder: JSONEncoder) { self.encoder = encoder }
}
