import Foundation

/// Reads the members of one JSON object by coding key.
///
/// With the default key strategy, keys are compared byte for byte against the document,
/// so no `String` is built per key; converted keys fall back to a dictionary, as in Foundation,
/// and so do large objects whose keys must be compared decoded (repeated, escaped, non-ASCII),
/// so that reading every member stays linear in the object's size.
struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: DecoderState
    let object: Int
    private let depth: Int
    /// `nil` for most containers. The standard library copies a container for every member it
    /// decodes, so each reference kept here is retained and released once more per member.
    private let extras: Extras?

    /// What only some containers have.
    private final class Extras {
        /// Set for containers opened with `nestedContainer`, whose path is not the decoder's.
        let ownPath: [PathComponent]?
        /// Each key (converted, or decoded) to the value of its first occurrence, when lookups go through a table.
        let keyTable: [String: Int]?

        init(ownPath: [PathComponent]?, keyTable: [String: Int]?) {
            self.ownPath = ownPath
            self.keyTable = keyTable
        }
    }

    init(state: DecoderState, object: Int, path: [PathComponent]?) throws {
        self.state = state
        self.object = object
        self.depth = path?.count ?? state.path.count
        let keyTable: [String: Int]?
        if !state.options.usesDefaultKeys {
            keyTable = try Self.convertKeys(state: state, object: object, path: path ?? state.path)
        } else if state.document[object].flags.contains(.slowKeys) && state.document[object].length > 8 {
            keyTable = Self.decodedKeys(document: state.document, object: object)
        } else {
            keyTable = nil
        }
        extras = path == nil && keyTable == nil ? nil : Extras(ownPath: path, keyTable: keyTable)
    }

    /// Set for containers opened with `nestedContainer`, whose path is not the decoder's.
    var ownPath: [PathComponent]? { extras?.ownPath }
    private var keyTable: [String: Int]? { extras?.keyTable }

    var codingPath: [any CodingKey] { (ownPath ?? state.path).map(\.codingKey) }

    var allKeys: [Key] {
        if let keyTable {
            return keyTable.sorted { $0.value < $1.value }.compactMap { Key(stringValue: $0.key) }
        }
        var keys: [Key] = []
        // Objects that may repeat a key list it once, as Foundation's dictionary of members does.
        var seen: Set<String>? = state.document[object].flags.contains(.slowKeys) ? [] : nil
        state.document.forEachMember(of: object) { keyIndex, _ in
            guard let text = try? state.string(state.document[keyIndex], nil), let key = Key(stringValue: text) else { return }
            if seen?.insert(text).inserted == false { return }
            keys.append(key)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    // MARK: Lookup

    /// The tape index of the value for `key`, or `nil` when the object has no such member.
    @inline(__always)
    func find(_ key: Key) -> Int? {
        if let keyTable { return keyTable[key.stringValue] }
        let document = state.document
        let node = document[object]
        if node.length == 0 { return nil }
        var name = key.stringValue
        if node.flags.contains(.slowKeys) { return document.member(named: name, in: object) }
        return name.withUTF8 { find(utf8: $0, in: node) }
    }

    @inline(__always)
    private func find(utf8 wanted: UnsafeBufferPointer<UInt8>, in node: JSONNode) -> Int? {
        let document = state.document
        let end = Int(node.aux)
        let slot = state.hintSlot(depth: depth)
        var start = object + 1
        if let slot, slot.pointee.object == Int32(truncatingIfNeeded: object), Int(slot.pointee.next) < end {
            start = Int(slot.pointee.next)
        }
        // Models usually read their keys in the document's order: the key after the last one
        // found (or the object's first) is compared before any hash is made.
        if start < end, let wantedBase = wanted.baseAddress {
            let keyNode = document[start]
            if Int(keyNode.length) == wanted.count, Self.equalBytes(document.base + Int(keyNode.start), wantedBase, count: wanted.count) {
                slot?.pointee = DecoderState.KeyHint(
                    object: Int32(truncatingIfNeeded: object), next: Int32(truncatingIfNeeded: document.next(after: start + 1)))
                return start + 1
            }
        }
        let hash = JSONScanner.keyHash(wanted)
        func matches(_ keyIndex: Int) -> Bool {
            let keyNode = document[keyIndex]
            guard keyNode.aux == hash && Int(keyNode.length) == wanted.count else { return false }
            guard let wantedBase = wanted.baseAddress else { return true }
            return Self.equalBytes(document.base + Int(keyNode.start), wantedBase, count: wanted.count)
        }
        // From the hint to the end, then from the first member up to the hint.
        var keyIndex = start
        var limit = end
        while true {
            while keyIndex < limit {
                let next = document.next(after: keyIndex + 1)
                if matches(keyIndex) {
                    slot?.pointee = DecoderState.KeyHint(
                        object: Int32(truncatingIfNeeded: object), next: Int32(truncatingIfNeeded: next))
                    return keyIndex + 1
                }
                keyIndex = next
            }
            if limit != end || start == object + 1 { return nil }
            keyIndex = object + 1
            limit = start
        }
    }

    /// Whether `count` bytes at `a` and `b` are the same, for a key whose length already
    /// matched: a key of at most 16 bytes as two overlapping words of each side, read within
    /// its `count` bytes, so the usual key costs no call to `memcmp`.
    @inline(__always)
    private static func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        let (rawA, rawB) = (UnsafeRawPointer(a), UnsafeRawPointer(b))
        switch count {
        case 8...16:
            return rawA.loadUnaligned(as: UInt64.self) == rawB.loadUnaligned(as: UInt64.self)
                && rawA.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == rawB.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            return rawA.loadUnaligned(as: UInt32.self) == rawB.loadUnaligned(as: UInt32.self)
                && rawA.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                    == rawB.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        case 2..<4:
            return rawA.loadUnaligned(as: UInt16.self) == rawB.loadUnaligned(as: UInt16.self)
                && rawA.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
                    == rawB.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
        case 1: return a.pointee == b.pointee
        case 0: return true
        default: return memcmp(a, b, count) == 0
        }
    }

    /// The table `JSONDocument.member(named:in:)` would answer from, built in one pass:
    /// keys that cannot be decoded are left out, the first of repeated keys wins.
    private static func decodedKeys(document: JSONDocument, object: Int) -> [String: Int] {
        var result: [String: Int] = [:]
        result.reserveCapacity(Int(document[object].length))
        document.forEachMember(of: object) { keyIndex, valueIndex in
            guard let name = try? document.text(of: document[keyIndex]).get() else { return }
            if result[name] == nil { result[name] = valueIndex }
        }
        return result
    }

    private static func convertKeys(state: DecoderState, object: Int, path: [PathComponent]) throws -> [String: Int] {
        var result: [String: Int] = [:]
        let document = state.document
        try document.forEachMember(of: object) { keyIndex, valueIndex in
            let raw = try state.string(document[keyIndex], nil)
            let converted: String
            switch state.options.keyStrategy {
            case .useDefaultKeys: converted = raw
            case .convertFromSnakeCase: converted = SnakeCase.camelCased(raw)
            case .custom(let convert): converted = convert(path.map(\.codingKey) + [StringKey(raw)]).stringValue
            }
            if result[converted] == nil { result[converted] = valueIndex }
        }
        return result
    }

    // MARK: Scoping

    /// Runs `body` with the decoder's path set to this container's, for containers with their own path.
    @inline(__always)
    private func scoped<R>(_ body: () throws -> R) rethrows -> R {
        guard let ownPath else { return try body() }
        let saved = state.path
        state.path = ownPath
        defer { state.path = saved }
        return try body()
    }

    private func keyNotFound(_ key: Key) -> DecodingError {
        DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }

    // MARK: Decoding

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let valueIndex = find(key) else { throw keyNotFound(key) }
        return state.document[valueIndex].kind == .null
    }

    /// Finds a required scalar, applying the missing and null defaults of the policy.
    @inline(__always)
    private func required<T: DefaultDecodable>(_ key: Key, _ read: (Int) throws -> T) throws -> T {
        try scoped {
            guard let valueIndex = find(key) else {
                guard state.allows(.defaultMissingValues) else { throw keyNotFound(key) }
                state.recordDefault(T.self, key, missing: true)
                return T.defaultValue
            }
            if state.document[valueIndex].kind == .null && state.allows(.defaultNullValues) {
                state.recordDefault(T.self, key, missing: false)
                return T.defaultValue
            }
            return try read(valueIndex)
        }
    }

    /// Finds an optional value; an undecodable one becomes `nil` when the policy allows.
    @inline(__always)
    private func optional<T>(_ key: Key, _ type: T.Type, _ read: (Int) throws -> T) throws -> T? {
        try scoped {
            guard let valueIndex = find(key), state.document[valueIndex].kind != .null else { return nil }
            guard state.allows(.nilInvalidOptionals) else { return try read(valueIndex) }
            return try state.absorbingLoss(of: valueIndex, T.self, key, .setToNil) { try read(valueIndex) }
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(key) { try state.unwrapBool($0, key) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try required(key) { try state.unwrapString($0, key) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(key) { try state.unwrapFloat($0, type, key) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try required(key) { try state.unwrapFloat($0, type, key) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(key) { try state.unwrapInteger($0, type, key) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try required(key) { try state.unwrapInteger($0, type, key) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try required(key) { try state.unwrapInteger($0, type, key) } }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try required(key) { try state.unwrapInteger($0, type, key) } }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try required(key) { try state.unwrapInteger($0, type, key) } }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try required(key) { try state.unwrapInteger($0, type, key) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try required(key) { try state.unwrapInteger($0, type, key) } }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try required(key) { try state.unwrapInteger($0, type, key) } }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try required(key) { try state.unwrapInteger($0, type, key) } }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try required(key) { try state.unwrapInteger($0, type, key) } }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try required(key) { try state.unwrapInteger($0, type, key) } }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try required(key) { try state.unwrapInteger($0, type, key) } }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try scoped {
            guard let valueIndex = find(key) else { return try absent(type, key, at: nil) }
            if state.document[valueIndex].kind == .null && state.allows(.defaultNullValues) {
                return try absent(type, key, at: valueIndex)
            }
            return try state.decodeNested(type, at: valueIndex, component: .key(key), key: key)
        }
    }

    /// A missing (`valueIndex == nil`) or `null` value: the type's default when it has one
    /// and the policy allows, else what strict decoding does.
    ///
    /// Out of line because asking for a default needs `Optional<T>`'s metadata, which would
    /// otherwise be looked up on every call of `decode(_:forKey:)`.
    @inline(never)
    private func absent<T: Decodable>(_ type: T.Type, _ key: Key, at valueIndex: Int?) throws -> T {
        let policyAllows = valueIndex == nil ? state.allows(.defaultMissingValues) : state.allows(.defaultNullValues)
        if policyAllows, let fallback = (T.self as? any DefaultDecodable.Type)?.defaultValue as? T {
            state.recordDefault(T.self, key, missing: valueIndex == nil)
            return fallback
        }
        guard let valueIndex else { throw keyNotFound(key) }
        return try state.decodeNested(type, at: valueIndex, component: .key(key), key: key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(key, type) { try state.unwrapBool($0, key) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try optional(key, type) { try state.unwrapString($0, key) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try optional(key, type) { try state.unwrapFloat($0, type, key) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try optional(key, type) { try state.unwrapFloat($0, type, key) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try optional(key, type) { try state.unwrapInteger($0, type, key) }
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try optional(key, type) { try state.unwrapInteger($0, type, key) }
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try optional(key, type) { try state.unwrapInteger($0, type, key) }
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try optional(key, type) { try state.unwrapInteger($0, type, key) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try optional(key, type) { try state.unwrapInteger($0, type, key) }
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try optional(key, type) { try state.unwrapInteger($0, type, key) }
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try optional(key, type) { try state.unwrapInteger($0, type, key) }
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try optional(key, type) { try state.unwrapInteger($0, type, key) }
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try optional(key, type) { try state.unwrapInteger($0, type, key) }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try optional(key, type) { try state.unwrapInteger($0, type, key) }
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
        try optional(key, type) { try state.unwrapInteger($0, type, key) }
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
        try optional(key, type) { try state.unwrapInteger($0, type, key) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try optional(key, type) { try state.decodeNested(type, at: $0, component: .key(key), key: key) }
    }

    // MARK: Nested containers

    private func memberPath(_ key: Key) -> [PathComponent] { (ownPath ?? state.path) + [.key(key)] }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try scoped {
            guard let valueIndex = find(key) else {
                throw DecodingError.keyNotFound(
                    key,
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription:
                            "Cannot get KeyedDecodingContainer<\(NestedKey.self)> -- no value found for key \(key) (\"\(key.stringValue)\")"
                    ))
            }
            let objectIndex = try state.objectIndex(at: valueIndex, key: key)
            return KeyedDecodingContainer(try KeyedContainer<NestedKey>(state: state, object: objectIndex, path: memberPath(key)))
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try scoped {
            guard let valueIndex = find(key) else {
                throw DecodingError.keyNotFound(
                    key,
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "Cannot get UnkeyedDecodingContainer -- no value found for key \(key) (\"\(key.stringValue)\")"))
            }
            return try UnkeyedContainer(state: state, array: state.arrayIndex(at: valueIndex, key: key), path: memberPath(key))
        }
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(named: StringKey("super"), at: find(superKey: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(named: key, at: find(key))
    }

    private func find(superKey name: String) -> Int? {
        guard let key = Key(stringValue: name) else { return state.document.member(named: name, in: object) }
        return find(key)
    }

    /// A decoder for one member; a missing member reads as `null`, as in Foundation.
    private func superDecoder(named key: any CodingKey, at valueIndex: Int?) throws -> any Decoder {
        state.superDecoder(at: valueIndex ?? state.document.detachedNull, path: (ownPath ?? state.path) + [.key(key)])
    }
}
