import Foundation

/// Finds the Unicode encoding of a JSON document the way Foundation's `JSONDecoder` does,
/// so that UTF-16 and UTF-32 payloads, with or without a byte order mark, decode alike.
package enum JSONInputEncoding {
    case utf8(bomLength: Int)
    case other(String.Encoding, bomLength: Int)

    static func detect(_ bytes: UnsafeRawBufferPointer) -> JSONInputEncoding {
        let count = bytes.count
        func byte(_ i: Int) -> UInt8 { i < count ? bytes[i] : 0xAA }
        // Byte order marks first.
        if count >= 3 && byte(0) == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF { return .utf8(bomLength: 3) }
        if count >= 4 && byte(0) == 0 && byte(1) == 0 && byte(2) == 0xFE && byte(3) == 0xFF {
            return .other(.utf32BigEndian, bomLength: 4)
        }
        if count >= 4 && byte(0) == 0xFF && byte(1) == 0xFE && byte(2) == 0 && byte(3) == 0 {
            return .other(.utf32LittleEndian, bomLength: 4)
        }
        if count >= 2 && byte(0) == 0xFE && byte(1) == 0xFF { return .other(.utf16BigEndian, bomLength: 2) }
        if count >= 2 && byte(0) == 0xFF && byte(1) == 0xFE { return .other(.utf16LittleEndian, bomLength: 2) }
        // Without a mark, JSON text starts with an ASCII character, so the zero bytes around it tell the width.
        if count >= 4 {
            switch (byte(0), byte(1), byte(2), byte(3)) {
            case (0, 0, 0, _): return .other(.utf32BigEndian, bomLength: 0)
            case (_, 0, 0, 0): return .other(.utf32LittleEndian, bomLength: 0)
            case (0, _, 0, _): return .other(.utf16BigEndian, bomLength: 0)
            case (_, 0, _, 0): return .other(.utf16LittleEndian, bomLength: 0)
            default: break
            }
        } else if count >= 2 {
            if byte(0) == 0 { return .other(.utf16BigEndian, bomLength: 0) }
            if byte(1) == 0 { return .other(.utf16LittleEndian, bomLength: 0) }
        }
        return .utf8(bomLength: 0)
    }

    /// Parses `data` into a document that keeps its own copy of the bytes.
    static func document(from data: Data, policy: DecodingPolicy) throws(JSONParseError) -> JSONDocument {
        let prepared: Result<JSONDocument, JSONParseError> = data.withUnsafeBytes { raw in
            switch detect(raw) {
            case .utf8(let bomLength):
                return .success(JSONDocument(copying: UnsafeRawBufferPointer(rebasing: raw[bomLength...])))
            case .other(let encoding, let bomLength):
                return transcoded(raw[bomLength...], from: encoding).map { utf8 in
                    utf8.withUnsafeBytes { JSONDocument(copying: $0) }
                }
            }
        }
        let document = try prepared.get()
        try JSONScanner.scan(document, policy: policy)
        return document
    }

    /// Parses `data` in place and runs `body` with the document: one decode reads the
    /// caller's bytes without copying them, unless something keeps the document afterwards.
    package static func withDocument<R>(
        from data: Data, policy: DecodingPolicy, _ body: (JSONDocument) throws -> R
    ) throws -> R {
        try data.withUnsafeBytes { raw in
            switch detect(raw) {
            case .utf8(let bomLength):
                return try withDocument(borrowing: UnsafeRawBufferPointer(rebasing: raw[bomLength...]), policy, body)
            case .other(let encoding, let bomLength):
                let utf8 = try transcoded(raw[bomLength...], from: encoding).get()
                return try utf8.withUnsafeBytes { try withDocument(borrowing: $0, policy, body) }
            }
        }
    }

    private static func withDocument<R>(
        borrowing bytes: UnsafeRawBufferPointer, _ policy: DecodingPolicy, _ body: (JSONDocument) throws -> R
    ) throws -> R {
        var document = JSONDocument(borrowing: bytes)
        defer {
            // A decoder or container that escaped `body` still holds the document.
            if !isKnownUniquelyReferenced(&document) { document.keepBytes() }
        }
        try JSONScanner.scan(document, policy: policy)
        return try body(document)
    }

    private static func transcoded(_ bytes: Slice<UnsafeRawBufferPointer>, from encoding: String.Encoding) -> Result<
        [UInt8], JSONParseError
    > {
        guard let text = String(bytes: bytes, encoding: encoding) else {
            return .failure(JSONParseError("The data is not valid \(encoding)", offset: 0, in: UnsafeBufferPointer(start: nil, count: 0)))
        }
        return .success(Array(text.utf8))
    }
}
