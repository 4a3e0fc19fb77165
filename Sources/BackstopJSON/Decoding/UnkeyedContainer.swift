/// Reads the elements of one JSON array in order.
struct UnkeyedContainer: UnkeyedDecodingContainer {
    let state: DecoderState
    let array: Int
    /// Set for containers opened with `nestedUnkeyedContainer`, whose path is not the decoder's.
    let ownPath: [PathComponent]?
    let count: Int?
    private(set) var currentIndex = 0
    /// The tape index of the element at `currentIndex`.
    private var element: Int

    init(state: DecoderState, array: Int, path: [PathComponent]?) throws {
        self.state = state
        self.array = array
        self.ownPath = path
        self.count = Int(state.document[array].length)
        self.element = array + 1
    }

    var codingPath: [any CodingKey] { (ownPath ?? state.path).map(\.codingKey) }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    @inline(__always)
    private func scoped<R>(_ body: () throws -> R) rethrows -> R {
        guard let ownPath else { return try body() }
        let saved = state.path
        state.path = ownPath
        defer { state.path = saved }
        return try body()
    }

    private func atEnd(_ type: Any.Type) -> DecodingError {
        DecodingError.valueNotFound(
            type,
            DecodingError.Context(
                codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
    }

    /// Reads the current element with `read` and moves past it, whether or not it decoded.
    @inline(__always)
    private mutating func next<T>(_ type: T.Type, _ read: (Int, IndexKey, DecoderState) throws -> T) throws -> T {
        guard !isAtEnd else { throw atEnd(type) }
        let key = IndexKey(currentIndex)
        let state = self.state
        let element = self.element
        let value = try scoped { try read(element, key, state) }
        self.element = state.document.next(after: element)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw atEnd(Never.self) }
        guard state.document[element].kind == .null else { return false }
        element += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $2.unwrapBool($0, $1) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $2.unwrapString($0, $1) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $2.unwrapFloat($0, type, $1) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $2.unwrapFloat($0, type, $1) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $2.unwrapInteger($0, type, $1) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $2.unwrapInteger($0, type, $1) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $2.unwrapInteger($0, type, $1) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $2.unwrapInteger($0, type, $1) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $2.unwrapInteger($0, type, $1) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $2.unwrapInteger($0, type, $1) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $2.unwrapInteger($0, type, $1) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $2.unwrapInteger($0, type, $1) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $2.unwrapInteger($0, type, $1) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $2.unwrapInteger($0, type, $1) } }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try next(type) { try $2.unwrapInteger($0, type, $1) } }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try next(type) { try $2.unwrapInteger($0, type, $1) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let position = currentIndex
        return try next(type) { try $2.decodeNested(type, at: $0, component: .index(position), key: $1) }
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? { try decodeOptional(type) }

    // Foundation moves past the end on every `decodeIfPresent`, the standard library's
    // defaults for these types do not; they forward here so `currentIndex` agrees.
    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try decodeOptional(type) }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try decodeOptional(type) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? { try decodeOptional(type) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? { try decodeOptional(type) }

    private mutating func decodeOptional<T: Decodable>(_ type: T.Type) throws -> T? {
        guard !isAtEnd else {
            currentIndex += 1
            return nil
        }
        if try decodeNil() { return nil }
        guard state.allows(.nilInvalidOptionals) else { return try decode(type) }
        let valueIndex = element
        let key = IndexKey(currentIndex)
        if let value = try state.absorbingLoss(of: valueIndex, T.self, key, .setToNil, under: ownPath, { try decode(type) }) {
            return value
        }
        element = state.document.next(after: valueIndex)
        currentIndex = key.index + 1
        return nil
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let path = (ownPath ?? state.path) + [PathComponent.index(currentIndex)]
        return try next(KeyedDecodingContainer<NestedKey>.self) { valueIndex, key, state in
            KeyedDecodingContainer(
                try KeyedContainer<NestedKey>(
                    state: state, object: try state.objectIndex(at: valueIndex, key: key), path: path))
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = (ownPath ?? state.path) + [PathComponent.index(currentIndex)]
        return try next((any UnkeyedDecodingContainer).self) { valueIndex, key, state in
            try UnkeyedContainer(state: state, array: try state.arrayIndex(at: valueIndex, key: key), path: path)
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        let path = (ownPath ?? state.path) + [PathComponent.index(currentIndex)]
        return try next((any Decoder).self) { valueIndex, _, state in state.superDecoder(at: valueIndex, path: path) }
    }
}
