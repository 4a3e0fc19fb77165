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
        // JSONEncoder is a class and not Sendable: the body encodes with a copy of its settings,
        // which the caller's later changes to `encoder` do not reach.
        let box = EncoderBox(copying: encoder)
        return Self { (try box.encoder.encode(value), "application/json") }
    }

    /// Bytes sent as they are.
    public static func data(_ data: Data, contentType: String) -> Self {
        Self { (data, contentType) }
    }

    func encoded() throws -> Encoded { try encode() }
}

/// A `JSONEncoder` only this box holds, so sharing the box shares no mutable state: it is
/// configured once, here, and only read afterwards.
private final class EncoderBox: @unchecked Sendable {
    let encoder: JSONEncoder

    init(copying original: JSONEncoder) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = original.outputFormatting
        encoder.dateEncodingStrategy = original.dateEncodingStrategy
        encoder.dataEncodingStrategy = original.dataEncodingStrategy
        encoder.nonConformingFloatEncodingStrategy = original.nonConformingFloatEncodingStrategy
        encoder.keyEncodingStrategy = original.keyEncodingStrategy
        encoder.userInfo = original.userInfo
        self.encoder = encoder
    }
}
