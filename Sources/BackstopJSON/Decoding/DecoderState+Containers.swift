/// The containers a `Decoder` opens, and the checks that the value can be one.
extension DecoderState {
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // An object (an array, below) is taken as it is: passing `objectIndex` its `nil` key
        // built and destroyed an optional existential on every open.
        let object = document[index].kind == .object ? index : try objectIndex(at: index, key: nil)
        return try KeyedDecodingContainer(KeyedContainer<Key>(state: self, object: object, path: nil))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let array = document[index].kind == .array ? index : try arrayIndex(at: index, key: nil)
        return try UnkeyedContainer(state: self, array: array, path: nil)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(state: self, index: index)
    }

    /// A decoder for the value at `valueIndex` that records its repairs into this decode's.
    func superDecoder(at valueIndex: Int, path: [PathComponent]) -> DecoderState {
        DecoderState(document: document, options: options, index: valueIndex, path: path, root: root ?? self)
    }

    func objectIndex(at index: Int, key: (any CodingKey)?) throws -> Int {
        let node = document[index]
        if node.kind == .object { return index }
        if node.kind == .null {
            throw DecodingError.valueNotFound(
                [String: Any].self, context(key, "Cannot get keyed decoding container -- found null value instead"))
        }
        throw DecodingError.typeMismatch(
            [String: Any].self, context(key, "Expected to decode Dictionary<String, Any> but found \(describe(node)) instead."))
    }

    func arrayIndex(at index: Int, key: (any CodingKey)?) throws -> Int {
        let node = document[index]
        if node.kind == .array { return index }
        if node.kind == .null {
            throw DecodingError.valueNotFound([Any].self, context(key, "Cannot get unkeyed decoding container -- found null value instead"))
        }
        throw DecodingError.typeMismatch([Any].self, context(key, "Expected to decode Array<Any> but found \(describe(node)) instead."))
    }
}
