#if OpenAPI
    import BackstopOpenAPI
#endif

/// Dirt in a JSON body's bytes that legacy and hand-rolled backends send, which a lenient
/// decoder has to see through: ``BackstopProxy`` applies it to an upstream's JSON answers.
///
/// Each kind changes the bytes, never what the JSON means, except ``notANumber``, which stands
/// for a number the backend could not write. A body that is not JSON comes back unchanged;
/// so does one with nothing the dirt applies to (``latin1`` on ASCII text, ``notANumber``
/// where there is no number).
public enum ByteDirt: String, Sendable, Hashable, CaseIterable {
    /// A UTF-8 byte order mark (EF BB BF) before the JSON, as Windows tools write it.
    case byteOrderMark = "byte-order-mark"
    /// A comma after the last member of every object and array that has one: `{"a":[1,],}`.
    case trailingCommas = "trailing-commas"
    /// Characters U+0080 to U+00FF sent as single Latin-1 bytes (`é` as 0xE9), which is not
    /// UTF-8; other characters stay as they were.
    case latin1 = "latin-1"
    /// The body's first number sent as `NaN`, as Python's `json.dumps` writes a float that is not one.
    case notANumber = "nan"

    /// `body` with this dirt.
    public func applied(to body: [UInt8]) -> [UInt8] {
        switch self {
        case .byteOrderMark: [0xEF, 0xBB, 0xBF] + body
        case .trailingCommas: TrailingCommas.inserted(into: body)
        case .latin1: Self.latin1(body)
        case .notANumber: Self.firstNumberAsNaN(body)
        }
    }

    private static func latin1(_ body: [UInt8]) -> [UInt8] {
        guard body.contains(where: { $0 >= 0x80 }), let text = String(validating: body, as: UTF8.self) else { return body }
        var dirty: [UInt8] = []
        dirty.reserveCapacity(body.count)
        for scalar in text.unicodeScalars {
            if scalar.value <= 0xFF {
                dirty.append(UInt8(scalar.value))
            } else {
                dirty.append(contentsOf: Array(String(scalar).utf8))
            }
        }
        return dirty
    }

    private static func firstNumberAsNaN(_ body: [UInt8]) -> [UInt8] {
        var start: Int?
        JSONStructure.forEachStructuralByte(in: body) { index, byte in
            if start == nil, byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { start = index }
        }
        guard let start else { return body }
        var end = start
        let numberBytes = Set("+-.0123456789eE".utf8)
        while end < body.count, numberBytes.contains(body[end]) { end += 1 }
        return Array(body[..<start]) + Array("NaN".utf8) + Array(body[end...])
    }
}
