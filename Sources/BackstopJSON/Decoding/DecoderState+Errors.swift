/// The `DecodingError`s of a decode, worded and placed as Foundation's `JSONDecoder` does.
extension DecoderState {
    func context(_ key: (any CodingKey)?, _ description: String, underlying: (any Error)? = nil) -> DecodingError.Context {
        // One allocation: lenient arrays build one of these for each element they drop.
        var codingPath: [any CodingKey] = []
        codingPath.reserveCapacity(path.count + 1)
        for component in path { codingPath.append(component.codingKey) }
        if let key { codingPath.append(key) }
        return DecodingError.Context(codingPath: codingPath, debugDescription: description, underlyingError: underlying)
    }

    func describe(_ node: JSONNode) -> String {
        switch node.kind {
        case .null: "null"
        case .true, .false: "bool"
        case .number: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }

    func typeMismatch(_ type: Any.Type, at valueIndex: Int, _ key: (any CodingKey)?) -> DecodingError {
        let found = document[valueIndex]
        let description = message(type, found.kind) { "Expected to decode \(type) but found \(describe(found)) instead." }
        return DecodingError.typeMismatch(type, context(key, description))
    }

    /// `NaN` or `Infinity`, which lenient parsing let through, where no floating-point type is expected.
    func nonFiniteMismatch(_ type: Any.Type, at valueIndex: Int, _ key: (any CodingKey)?) -> DecodingError {
        let text = String(decoding: document.raw(document[valueIndex]), as: UTF8.self)
        return DecodingError.typeMismatch(type, context(key, "Expected to decode \(type) but found the non-finite number \(text) instead."))
    }

    func valueNotFound(_ type: Any.Type, _ key: (any CodingKey)?) -> DecodingError {
        let description = message(type, nil) { "Cannot get value of type \(type) -- found null value instead" }
        return DecodingError.valueNotFound(type, context(key, description))
    }

    /// The description of a type mismatch (or, with `found` `nil`, of a missing value), written
    /// once per type and kind: a lenient array may drop a hundred thousand elements alike.
    private func message(_ type: Any.Type, _ found: JSONNode.Kind?, _ write: () -> String) -> String {
        let key = MessageKey(type: ObjectIdentifier(type), found: found)
        if let written = messages[key] { return written }
        let written = write()
        messages[key] = written
        return written
    }

    struct MessageKey: Hashable {
        let type: ObjectIdentifier
        let found: JSONNode.Kind?
    }

    /// Foundation reports numbers that do not fit with an empty coding path; strict mode
    /// keeps that for identical errors, lenient mode gives the real path. Both name it in
    /// the description.
    func numberDoesNotFit(_ raw: UnsafeBufferPointer<UInt8>, _ type: Any.Type, _ key: (any CodingKey)?) -> DecodingError {
        let text = String(decoding: raw, as: UTF8.self)
        let description = "The given data was not valid JSON. Number \(text) at \(jsonPath(key)) does not fit in \(type)."
        let codingPath: [any CodingKey] = options.policy == .strict ? [] : context(key, "").codingPath
        return DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: description))
    }

    /// A one-line account of a decoding error, for a repair's reason.
    static func summary(of error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(JSONPath.string(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(JSONPath.string(context.codingPath + [key])): required key is missing"
        @unknown default:
            return String(describing: error)
        }
    }
}
