/// Reads the one value a `Decoder` stands on.
struct SingleValueContainer: SingleValueDecodingContainer {
    let state: DecoderState
    let index: Int
    let codingPath: [any CodingKey]

    init(state: DecoderState, index: Int) {
        self.state = state
        self.index = index
        self.codingPath = state.codingPath
    }

    func decodeNil() -> Bool { state.document[index].kind == .null }

    /// The value that `rule` reads from the node as written, with what was found, for the
    /// property wrappers: the policy's coercions on ResilientJSONDecoder's own tape.
    func coerced<Value>(_ rule: (JSONDocument, Int) -> Value?) -> (Value, Repair.Found)? {
        rule(state.document, index).map { ($0, state.document.found(index)) }
    }

    func decode(_ type: Bool.Type) throws -> Bool { try state.unwrapBool(index, nil) }
    func decode(_ type: String.Type) throws -> String { try state.unwrapString(index, nil) }
    func decode(_ type: Double.Type) throws -> Double { try state.unwrapFloat(index, type, nil) }
    func decode(_ type: Float.Type) throws -> Float { try state.unwrapFloat(index, type, nil) }
    func decode(_ type: Int.Type) throws -> Int { try state.unwrapInteger(index, type, nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try state.unwrapInteger(index, type, nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try state.unwrapInteger(index, type, nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try state.unwrapInteger(index, type, nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try state.unwrapInteger(index, type, nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try state.unwrapInteger(index, type, nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try state.unwrapInteger(index, type, nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try state.unwrapInteger(index, type, nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try state.unwrapInteger(index, type, nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try state.unwrapInteger(index, type, nil) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try state.unwrapInteger(index, type, nil) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try state.unwrapInteger(index, type, nil) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try state.decodeValue(type, kind: state.typeKinds.kind(of: type), at: index, component: nil, key: nil)
    }
}
