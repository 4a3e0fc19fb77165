/// The `DecodingError`s of a decode, worded and placed as Foundation's `JSONDecoder` does.
extension DecoderState {
    func context(_ key: (any CodingKey)?, _ description: String, underlying: (any Error)? = nil) -> DecodingError.Context {
        var codingPath = self.codingPath
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
        DecodingError.typeMismatch(type, context(key, "Expected to decode \(type) but found \(describe(document[valueIndex])) instead."))
    }

    /// `NaN` or `Infinity`, which lenient parsing let through, where no floating-point type is expected.
    func nonFiniteMismatch(_ type: Any.Type, at valueIndex: Int, _ key: (any CodingKey)?) -> DecodingError {
        let text = String(decoding: document.raw(document[valueIndex]), as: UTF8.self)
        return DecodingError.typeMismatch(type, context(key, "Expected to decode \(type) but found the non-finite number \(text) instead."))
    }

    func valueNotFound(_ type: Any.Type, _ key: (any CodingKey)?) -> DecodingError {
        DecodingError.valueNotFound(type, context(key, "Cannot get value of type \(type) -- found null value instead"))
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
