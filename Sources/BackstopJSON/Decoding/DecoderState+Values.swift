import Foundation

/// Dispatch: every value of a decode goes through here, by its type's ``TypeKind``.
extension DecoderState {
    /// Decodes the root value.
    ///
    /// The root's kind is asked once per decode, so it skips the decode's own cache: a small
    /// model whose members are all scalars then never allocates the cache's table.
    func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
        let kind = KnownTypeKinds.kind(of: type)
        // A model reads itself where the cursor already is; through `decodeValue` it cost a
        // `nil` key built as an optional existential and destroyed.
        if case .model = kind { return try type.init(from: self) }
        return try decodeValue(type, kind: kind, at: index, component: nil, key: nil)
    }

    /// Decodes the value at `valueIndex`, reached from the current value through `component`.
    ///
    /// Only a model puts `component` on the path, and only the other kinds read `key`: each is
    /// boxed as an existential where it is used, not both for every value.
    @inline(__always)
    func decodeNested<T: Decodable, Key: CodingKey>(
        _ type: T.Type, at valueIndex: Int, component: @autoclosure () -> PathComponent, key: Key
    ) throws -> T {
        let kind = typeKinds.kind(of: type)
        // `type`, not `T`: decoding `Employee.self as Person.Type` must build an `Employee`.
        if case .model = kind { return try with(valueIndex, component()) { try type.init(from: self) } }
        return try decodeValue(type, kind: kind, at: valueIndex, component: nil, key: key)
    }

    /// Decodes a value of a type whose ``TypeKind`` is known.
    ///
    /// Scalars are read straight from the tape for speed, the types Foundation treats
    /// specially (Date, Data, URL, Decimal) as Foundation does, collections element by
    /// element so broken ones can be dropped, and everything else by its own `init(from:)`
    /// with `component` on the path. Returns `T` itself, never `T?`: building an optional
    /// of a generic type costs a metadata lookup per value.
    func decodeValue<T: Decodable>(
        _ type: T.Type, kind: TypeKind, at valueIndex: Int, component: PathComponent?, key: (any CodingKey)?
    ) throws -> T {
        switch kind {
        // `type`, not `T`: decoding `Employee.self as Person.Type` must build an `Employee`.
        case .model: return try with(valueIndex, component) { try type.init(from: self) }
        case .string: return unsafeBitCast(try unwrapString(valueIndex, key), to: T.self)
        case .int: return unsafeBitCast(try unwrapInteger(valueIndex, Int.self, key), to: T.self)
        case .double: return unsafeBitCast(try unwrapFloat(valueIndex, Double.self, key), to: T.self)
        case .bool: return unsafeBitCast(try unwrapBool(valueIndex, key), to: T.self)
        case .float: return unsafeBitCast(try unwrapFloat(valueIndex, Float.self, key), to: T.self)
        case .int64: return unsafeBitCast(try unwrapInteger(valueIndex, Int64.self, key), to: T.self)
        case .stringArray: return unsafeBitCast(try scalarArray(valueIndex, key) { try unwrapString($0, $1) }, to: T.self)
        case .intArray: return unsafeBitCast(try scalarArray(valueIndex, key) { try unwrapInteger($0, Int.self, $1) }, to: T.self)
        case .doubleArray: return unsafeBitCast(try scalarArray(valueIndex, key) { try unwrapFloat($0, Double.self, $1) }, to: T.self)
        case .int64Array: return unsafeBitCast(try scalarArray(valueIndex, key) { try unwrapInteger($0, Int64.self, $1) }, to: T.self)
        case .collection, .date, .data, .url, .decimal:
            return try decodeLessCommon(type, kind: kind, at: valueIndex, key: key)
        }
    }

    /// Collections and Foundation types, kept out of ``decodeValue(_:kind:at:component:key:)``
    /// so that its common cases stay small.
    @inline(never)
    private func decodeLessCommon<T: Decodable>(_ type: T.Type, kind: TypeKind, at valueIndex: Int, key: (any CodingKey)?) throws -> T {
        switch kind {
        case .collection(let collection): return try decodeCollection(collection, at: valueIndex, key: key, as: T.self)
        case .date: return try special(unwrapDate(valueIndex, key), as: T.self)
        case .data: return try special(unwrapData(valueIndex, key), as: T.self)
        case .url: return try special(unwrapURL(valueIndex, key), as: T.self)
        case .decimal: return try special(unwrapDecimal(valueIndex, key), as: T.self)
        default: return try decodeValue(type, kind: kind, at: valueIndex, component: nil, key: key)
        }
    }

    /// A collection of type `C`, which the type kind says is `T`: reinterpreted, not cast.
    ///
    /// Decoding into a temporary allocation of `T` instead looked up `Result<T, any Error>`'s
    /// metadata on every call (about 460 instructions per collection, 1.4% of twitter.json).
    private func decodeCollection<C: TapeDecodable, T>(
        _ collection: C.Type, at valueIndex: Int, key: (any CodingKey)?, as type: T.Type
    ) throws -> T {
        unsafeBitCast(try C.decode(from: self, at: valueIndex, key: key), to: T.self)
    }

    /// `value` as `T`, which the type kind says it is.
    private func special<V, T>(_ value: V, as type: T.Type) throws -> T {
        guard let value = value as? T else {
            throw DecodingError.typeMismatch(T.self, context(nil, "Expected \(T.self), decoded \(V.self)"))
        }
        return value
    }
}
