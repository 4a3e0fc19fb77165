import Foundation

/// A JSON document parsed once, whose parts can be inspected and decoded separately.
///
/// Envelope contracts use it to read a status code and message and then decode only the
/// payload, without parsing the body twice. Errors and repairs of a part carry paths
/// rooted at the document (`$.result.data.id`), not at the part.
public struct ParsedJSON: @unchecked Sendable {
    // The document is immutable after parsing; sharing it across tasks is safe.
    private let document: JSONDocument
    /// The decoder whose policy, strategies and reporter apply to every part.
    public let decoder: ResilientJSONDecoder
    /// The decoder's settings, frozen once for every part read from this document.
    private let options: DecodingOptions
    /// Repairs made while parsing (trailing commas), rooted at the document.
    public let parsingRepairs: [Repair]

    /// Parses `data`; throws `DecodingError.dataCorrupted` when it is not JSON.
    public init(_ data: Data, decoder: ResilientJSONDecoder = ResilientJSONDecoder()) throws {
        do {
            document = try JSONInputEncoding.document(
                from: data, allowsTrailingCommas: decoder.policy.contains(.allowTrailingCommas))
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: "The given data was not valid JSON. \(error)", underlyingError: error))
        }
        self.decoder = decoder
        options = DecodingOptions(decoder)
        if document.trailingCommas.isEmpty {
            parsingRepairs = []
        } else {
            let state = DecoderState(document: document, options: options)
            state.recordTrailingCommas()
            parsingRepairs = state.repairs
        }
    }

    /// The tape index of the value at `path`, following object members by name.
    private func index(at path: [String]) -> Int? {
        var current = 0
        for name in path {
            let node = document[current]
            guard node.kind == .object else { return nil }
            var keyIndex = current + 1
            var found: Int?
            for _ in 0..<Int(node.length) {
                if found == nil, String(decoding: document.raw(document[keyIndex]), as: UTF8.self) == name
                    || (document[keyIndex].flags.contains(.escaped)
                        && (try? JSONString.unescape(document.raw(document[keyIndex])).get()) == name) {
                    found = keyIndex + 1
                }
                keyIndex = document.next(after: keyIndex + 1)
            }
            guard let found else { return nil }
            current = found
        }
        return current
    }

    /// The kind of value at `path` (member names from the root), or ``JSONKind/missing``.
    public func kind(at path: [String] = []) -> JSONKind {
        index(at: path).map { document[$0].jsonKind } ?? .missing
    }

    /// The value at `path` as a ``JSONValue``, or `nil` when there is none.
    public func value(at path: [String] = []) -> JSONValue? {
        guard let valueIndex = index(at: path) else { return nil }
        let state = DecoderState(document: document, options: options, index: valueIndex)
        return try? JSONValue.decode(from: state, at: valueIndex, key: nil)
    }

    /// Decodes the value at `path` as `type`, with repairs whose paths start at the document root.
    ///
    /// Repairs also go to the decoder's reporter. A `path` that does not exist throws
    /// `DecodingError.keyNotFound` naming the first missing member.
    public func decode<T: Decodable>(_ type: T.Type, at path: [String] = []) throws -> DecodingReport<T> {
        var components: [PathComponent] = []
        var current = 0
        for name in path {
            guard let next = index(at: components.map { $0.codingKey.stringValue } + [name]) else {
                let codingPath = components.map(\.codingKey)
                throw DecodingError.keyNotFound(StringKey(name), DecodingError.Context(
                    codingPath: codingPath, debugDescription: "No value associated with key \"\(name)\"."))
            }
            components.append(.key(StringKey(name)))
            current = next
        }
        let state = DecoderState(document: document, options: options, index: current, path: components)
        let value = try state.decodeRoot(type)
        let repairs = state.repairs
        if !repairs.isEmpty, let reporter = decoder.reporter { reporter.report(repairs, decoding: type) }
        return DecodingReport(value: value, repairs: repairs)
    }

    /// The start of the document as text, for error messages; at most `limit` characters.
    public func excerpt(limit: Int = 120) -> String {
        let text = String(decoding: UnsafeBufferPointer(start: document.base, count: min(document.byteCount, limit * 4)), as: UTF8.self)
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}
