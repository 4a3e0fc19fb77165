import Foundation

/// A JSON document parsed once, whose parts can be inspected and decoded separately.
///
/// Envelope contracts use it to read a status code and message and then decode only the
/// payload, without parsing the body twice. Errors and repairs of a part carry paths
/// rooted at the document (`$.result.data.id`), not at the part.
///
/// One `ParsedJSON` may be read and decoded from many tasks at once: parsing finishes the
/// document, and every read or decode after that only reads it.
public struct ParsedJSON: @unchecked Sendable {
    // Unchecked because `JSONDocument` is a class over raw memory; nothing writes to it
    // once `JSONScanner` has finished (absent members read a `null` built while parsing).
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
                from: data, policy: decoder.policy)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
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

    private init(document: JSONDocument, reader: Reader, parsingRepairs: [Repair]) {
        self.document = document
        decoder = reader.decoder
        options = reader.options
        self.parsingRepairs = parsingRepairs
    }

    /// A decoder with its settings frozen once, for reading many parsed documents with it
    /// (``reading(with:)``): freezing a decoder with a reporter builds its user info.
    package struct Reader: @unchecked Sendable {
        // Unchecked because the frozen settings hold the decoder's user info as `Any`; they
        // are never changed, and the decoder only takes `Sendable` values.
        package let decoder: ResilientJSONDecoder
        fileprivate let options: DecodingOptions

        package init(_ decoder: ResilientJSONDecoder) {
            self.decoder = decoder
            options = DecodingOptions(decoder)
        }
    }

    /// The same parsed document read with `reader`'s decoder: its strategies and reporter, so a
    /// body a middleware parsed is not parsed again; `nil` when its policy differs, since it
    /// could have parsed the bytes differently.
    package func reading(with reader: Reader) -> ParsedJSON? {
        guard reader.decoder.policy == decoder.policy else { return nil }
        return ParsedJSON(document: document, reader: reader, parsingRepairs: parsingRepairs)
    }

    /// The kind of value at `path` (member names from the root), or ``JSONKind/missing``.
    public func kind(at path: [String] = []) -> JSONKind {
        document.index(at: path).map { document[$0].jsonKind } ?? .missing
    }

    /// The value at `path` as a ``JSONValue``, or `nil` when there is none.
    public func value(at path: [String] = []) -> JSONValue? {
        guard let valueIndex = document.index(at: path) else { return nil }
        let state = DecoderState(document: document, options: options, index: valueIndex)
        return try? JSONValue.decode(from: state, at: valueIndex, key: nil)
    }

    // Backstop's envelope reader applies the lenient policy's coercions to envelope fields
    // whatever the decoder's policy, to the values as written.

    /// The value at `path` as a `Bool` by ``DecodingPolicy/boolsFromNumbersAndStrings``, with what was found.
    package func coercedBool(at path: [String]) -> (value: Bool, found: Repair.Found)? {
        guard let valueIndex = document.index(at: path) else { return nil }
        return document.coercedBool(valueIndex).map { ($0, document.found(valueIndex)) }
    }

    /// The value at `path` as an `Int` by ``DecodingPolicy/numbersFromStrings``, with what was found.
    package func coercedInteger(at path: [String]) -> (value: Int, found: Repair.Found)? {
        guard let valueIndex = document.index(at: path) else { return nil }
        return document.coercedInteger(valueIndex, as: Int.self).map { ($0, document.found(valueIndex)) }
    }

    /// The number at `path` when it is written as a whole number (no fraction, no exponent)
    /// that fits in an `Int`, as ``value(at:)`` reads it; `nil` for anything else. Read from the
    /// parse alone: an envelope's code is read on every call.
    package func wholeNumber(at path: [String]) -> Int? {
        guard let valueIndex = document.index(at: path) else { return nil }
        return document.wholeNumber(valueIndex)
    }

    /// Decodes the value at `path` as `type`, with repairs whose paths start at the document root.
    ///
    /// Repairs also go to the decoder's reporter. A `path` that does not exist throws
    /// `DecodingError.keyNotFound` naming the first missing member.
    public func decode<T: Decodable>(_ type: T.Type, at path: [String] = []) throws -> DecodingReport<T> {
        var repairs: [Repair] = []
        let value = try decode(type, at: path, repairs: &repairs)
        return DecodingReport(value: value, repairs: repairs)
    }

    /// ``decode(_:at:)`` with the repairs appended to `repairs`: a generic report looks up its
    /// type's metadata on every call, which an unspecialized caller pays for each payload.
    package func decode<T: Decodable>(_ type: T.Type, at path: [String], repairs: inout [Repair]) throws -> T {
        var components: [PathComponent] = []
        var current = 0
        for name in path {
            guard document[current].kind == .object, let next = document.member(named: name, in: current) else {
                let codingPath = components.map(\.codingKey)
                throw DecodingError.keyNotFound(
                    StringKey(name),
                    DecodingError.Context(
                        codingPath: codingPath, debugDescription: "No value associated with key \"\(name)\"."))
            }
            components.append(.key(StringKey(name)))
            current = next
        }
        let state = DecoderState(document: document, options: options, index: current, path: components)
        let value = try state.decodeRoot(type)
        if !state.repairs.isEmpty {
            if let reporter = decoder.reporter { reporter.report(state.repairs, decoding: type) }
            repairs += state.repairs
        }
        return value
    }

    /// The start of the document as text, for error messages; at most `limit` characters.
    public func excerpt(limit: Int = 120) -> String {
        let text = String(decoding: UnsafeBufferPointer(start: document.base, count: min(document.byteCount, limit * 4)), as: UTF8.self)
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}
