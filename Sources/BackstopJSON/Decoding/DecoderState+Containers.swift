/// The containers a `Decoder` opens, and the checks that the value can be one.
extension DecoderState {
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try KeyedDecodingContainer(KeyedContainer<Key>(state: self, object: objectIndex(at: index, key: nil), path: nil))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try UnkeyedContainer(state: self, array: arrayIndex(at: index, key: nil), path: nil)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(state: self, index: index)
    }

    /// A decoder for the value at `valueIndex` that records its repairs into this decode's.
    func superDecoder(at valueIndex: Int, path: [PathComponent]) -> DecoderState {
        DecoderState(document: document, options: options, index: valueIndex, path: path, root: root ?? self)
    }

    /// `index`, if an object is there; else the error that names `key`.
    ///
    /// The key is made only for the error: taken as a value, even a `nil` one was built as an
    /// optional existential and destroyed on every container opened.
    func objectIndex(at index: Int, key: @autoclosure () -> (any CodingKey)?) throws -> Int {
        let node = document[index]
        if node.kind == .object { return index }
        let key = key()
        if node.kind == .null {
            throw DecodingError.valueNotFound(
                [String: Any].self, context(key, "Cannot get keyed decoding container -- found null value instead"))
        }
        throw DecodingError.typeMismatch(
            [String: Any].self, context(key, "Expected to decode Dictionary<String, Any> but found \(describe(node)) instead."))
    }

    /// `index`, if an array is there; else the error that names `key`, made only then.
    func arrayIndex(at index: Int, key: @autoclosure () -> (any CodingKey)?) throws -> Int {
        let node = document[index]
        if node.kind == .array { return index }
        let key = key()
        if node.kind == .null {
            throw DecodingError.valueNotFound([Any].self, context(key, "Cannot get unkeyed decoding container -- found null value instead"))
        }
        throw DecodingError.typeMismatch([Any].self, context(key, "Expected to decode Array<Any> but found \(describe(node)) instead."))
    }
}
