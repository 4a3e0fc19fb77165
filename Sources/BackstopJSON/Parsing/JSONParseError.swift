/// Why a document is not valid JSON, and where.
///
/// Thrown as the `underlyingError` of a `DecodingError.dataCorrupted`, as Foundation's
/// `JSONDecoder` does; `line` and `column` are 1-based and count bytes.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the parser expected or rejected.
    public var reason: String
    /// Byte offset of the problem in the UTF-8 document.
    public var offset: Int
    /// The line of the problem, from 1.
    public var line: Int
    /// The column of the problem in bytes, from 1.
    public var column: Int
    /// A short piece of the document around the problem.
    public var excerpt: String

    public var description: String {
        "\(reason) at line \(line), column \(column) near \(excerpt.debugDescription)"
    }

    init(_ reason: String, offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        self.reason = reason
        self.offset = offset
        var line = 1
        var lineStart = 0
        let limit = min(offset, bytes.count)
        for i in 0..<limit where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        self.line = line
        self.column = offset - lineStart + 1
        let from = max(0, min(offset, bytes.count) - 20)
        let to = min(bytes.count, offset + 20)
        self.excerpt = String(decoding: bytes[from..<to], as: UTF8.self)
    }
}
