import Foundation

/// The `Decoder` that `init(from:)` implementations receive: a cursor over a parsed
/// document, the coding path that leads to it, and the repairs made so far.
///
/// One instance serves a whole decode; nested values move its cursor and path and put
/// them back, so decoding allocates nothing per value beyond what the model keeps.
final class DecoderState: Decoder {
    let document: JSONDocument
    let options: DecodingOptions
    /// The tape index of the value that `container(...)` calls open.
    @exclusivity(unchecked) var index: Int
    @exclusivity(unchecked) var path: [PathComponent]
    /// Repairs in the order they were made; super decoders record into their root's.
    private(set) var repairs: [Repair] = []
    private let root: DecoderState?
    @exclusivity(unchecked) var typeKinds = TypeKindCache()
    private var hints: UnsafeMutablePointer<KeyHint>?
    private var hintCount = 0

    init(document: JSONDocument, options: DecodingOptions, index: Int = 0, path: [PathComponent] = [], root: DecoderState? = nil) {
        self.document = document
        self.options = options
        self.index = index
        self.path = path
        self.root = root
    }

    deinit { hints?.deallocate() }

    var codingPath: [any CodingKey] { path.map(\.codingKey) }
    /// The decoder that collects repairs for this one (itself, unless it is a super decoder).
    var rootState: DecoderState { root ?? self }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    @inline(__always)
    func allows(_ option: DecodingPolicy) -> Bool { options.policy.contains(option) }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try KeyedDecodingContainer(KeyedContainer<Key>(state: self, object: objectIndex(at: index, key: nil), path: nil))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try UnkeyedContainer(state: self, array: arrayIndex(at: index, key: nil), path: nil)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(state: self, index: index)
    }

    func objectIndex(at index: Int, key: (any CodingKey)?) throws -> Int {
        let node = document[index]
        if node.kind == .object { return index }
        if node.kind == .null {
            throw DecodingError.valueNotFound([String: Any].self, context(key, "Cannot get keyed decoding container -- found null value instead"))
        }
        throw DecodingError.typeMismatch([String: Any].self, context(key, "Expected to decode Dictionary<String, Any> but found \(describe(node)) instead."))
    }

    func arrayIndex(at index: Int, key: (any CodingKey)?) throws -> Int {
        let node = document[index]
        if node.kind == .array { return index }
        if node.kind == .null {
            throw DecodingError.valueNotFound([Any].self, context(key, "Cannot get unkeyed decoding container -- found null value instead"))
        }
        throw DecodingError.typeMismatch([Any].self, context(key, "Expected to decode Array<Any> but found \(describe(node)) instead."))
    }

    // MARK: Key hints

    struct KeyHint {
        var object: Int32
        var next: Int32
    }

    /// The slot that remembers where the last lookup in an object at this depth ended.
    ///
    /// Synthesized `init(from:)` asks for keys in declaration order, which is usually the
    /// document's order, so starting where the previous lookup ended finds most keys first try.
    @inline(__always)
    func hintSlot(depth: Int) -> UnsafeMutablePointer<KeyHint>? {
        if let hints { return depth < hintCount ? hints + depth : nil }
        // One slot per level the document can nest, and a few for the paths super decoders add;
        // deeper lookups simply go without a hint.
        hintCount = document.maxDepth + 4
        let slots = UnsafeMutablePointer<KeyHint>.allocate(capacity: hintCount)
        slots.initialize(repeating: KeyHint(object: -1, next: 0), count: hintCount)
        hints = slots
        guard depth < hintCount else { return nil }
        return slots + depth
    }

    // MARK: Nested values

    /// Decodes the root value.
    func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeValue(type, kind: typeKinds.kind(of: type), at: index, component: nil, key: nil)
    }

    /// Decodes the value at `valueIndex`, reached from the current value through `component`.
    @inline(__always)
    func decodeNested<T: Decodable>(_ type: T.Type, at valueIndex: Int, component: PathComponent, key: any CodingKey) throws -> T {
        try decodeValue(type, kind: typeKinds.kind(of: type), at: valueIndex, component: component, key: key)
    }

    /// Runs `body` with the cursor on `valueIndex` and `component` on the path.
    @inline(__always)
    func with<R>(_ valueIndex: Int, _ component: PathComponent?, _ body: () throws -> R) rethrows -> R {
        let saved = index
        if let component { path.append(component) }
        index = valueIndex
        defer {
            index = saved
            if component != nil { path.removeLast() }
        }
        return try body()
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
    /// because the temporary allocation below makes its caller look up `Result<T, Error>`'s
    /// metadata on every call, whichever case runs.
    @inline(never)
    private func decodeLessCommon<T: Decodable>(_ type: T.Type, kind: TypeKind, at valueIndex: Int, key: (any CodingKey)?) throws -> T {
        switch kind {
        case .collection(let collection):
            // The collection initializes the memory as itself, which is `T`: no dynamic cast.
            return try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
                let slot = UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped)
                try collection.decode(from: self, at: valueIndex, key: key, into: slot)
                return slot.assumingMemoryBound(to: T.self).move()
            }
        case .date: return try special(unwrapDate(valueIndex, key), as: T.self)
        case .data: return try special(unwrapData(valueIndex, key), as: T.self)
        case .url: return try special(unwrapURL(valueIndex, key), as: T.self)
        case .decimal: return try special(unwrapDecimal(valueIndex, key), as: T.self)
        default: return try decodeValue(type, kind: kind, at: valueIndex, component: nil, key: key)
        }
    }

    /// `value` as `T`, which the type kind says it is.
    private func special<V, T>(_ value: V, as type: T.Type) throws -> T {
        guard let value = value as? T else {
            throw DecodingError.typeMismatch(T.self, context(nil, "Expected \(T.self), decoded \(V.self)"))
        }
        return value
    }

    // MARK: Errors

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

    func valueNotFound(_ type: Any.Type, _ key: (any CodingKey)?) -> DecodingError {
        DecodingError.valueNotFound(type, context(key, "Cannot get value of type \(type) -- found null value instead"))
    }

    // MARK: Repairs

    /// The JSON path of the current value, with `key` appended.
    func jsonPath(_ key: (any CodingKey)?) -> String {
        var text = "$"
        for component in path {
            switch component {
            case .index(let i): text += "[\(i)]"
            case .key(let key): JSONPath.append(key, to: &text)
            }
        }
        if let key { JSONPath.append(key, to: &text) }
        return text
    }

    func record(_ repair: Repair) {
        if let root { root.record(repair) } else { repairs.append(repair) }
    }

    var repairCount: Int { root?.repairCount ?? repairs.count }

    /// Forgets repairs made inside a value that was then dropped or set to `nil` as a whole.
    func discardRepairs(from mark: Int) {
        if let root { root.discardRepairs(from: mark) } else if repairs.count > mark { repairs.removeSubrange(mark...) }
    }

    func found(_ valueIndex: Int) -> Repair.Found {
        let node = document[valueIndex]
        return Repair.Found(kind: node.jsonKind, excerpt: excerpt(valueIndex))
    }

    /// Up to 40 bytes of the value as written.
    func excerpt(_ valueIndex: Int) -> String {
        let node = document[valueIndex]
        var start = Int(node.start)
        var length: Int
        switch node.kind {
        case .string:
            start -= 1
            length = Int(node.length) + 2
        case .array, .object:
            length = document.endOffset(ofContainer: valueIndex) - start
        default:
            length = Int(node.length)
        }
        start = min(max(start, 0), document.byteCount)
        length = min(max(length, 0), document.byteCount - start)
        var text = String(decoding: UnsafeBufferPointer(start: document.base + start, count: min(length, 40)), as: UTF8.self)
        if length > 40 { text += "…" }
        return text
    }

    func recordCoercion(_ valueIndex: Int, to type: Any.Type, _ key: (any CodingKey)?) {
        record(Repair(path: jsonPath(key), expected: "\(type)", found: found(valueIndex), action: .coerced))
    }

    func recordDefault(_ type: Any.Type, _ key: (any CodingKey)?, missing: Bool) {
        record(Repair(
            path: jsonPath(key), expected: "\(type)",
            found: Repair.Found(kind: missing ? .missing : .null, excerpt: missing ? "" : "null"),
            action: missing ? .defaultedBecauseMissing : .defaultedBecauseNull))
    }

    /// Records that the value at `valueIndex` was given up on, rolling back repairs made inside it.
    func recordLoss(_ valueIndex: Int, _ type: Any.Type, _ key: (any CodingKey)?, action: Repair.Action, error: any Error, mark: Int) {
        discardRepairs(from: mark)
        record(Repair(path: jsonPath(key), expected: "\(type)", found: found(valueIndex), action: action, reason: Self.summary(of: error)))
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

    func recordTrailingCommas() {
        for (container, _) in document.trailingCommas {
            let node = document[container]
            record(Repair(
                path: document.jsonPath(to: container), expected: node.kind == .array ? "array" : "object",
                found: Repair.Found(kind: node.jsonKind, excerpt: ","), action: .ignoredTrailingComma))
        }
    }

    /// Whether an error may be absorbed by a lossy boundary: data errors, not cancellation.
    static func isAbsorbable(_ error: any Error) -> Bool { !(error is CancellationError) }
}

extension JSONDocument {
    /// The byte offset just past a container's closing bracket.
    func endOffset(ofContainer index: Int) -> Int {
        let node = self[index]
        let after = Int(node.aux)
        var offset = byteCount
        if after < count, Int(self[after].start) > Int(node.start) { offset = Int(self[after].start) }
        let closing = node.kind == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")
        while offset > Int(node.start) && base[offset - 1] != closing { offset -= 1 }
        return offset
    }

    /// The JSON path of the value at `target`, found by walking down from the root.
    func jsonPath(to target: Int) -> String {
        var path = "$"
        var current = 0
        while current != target {
            let node = self[current]
            var child = current + 1
            var position = 0
            var found = false
            while position < Int(node.length) {
                let valueIndex = node.kind == .object ? child + 1 : child
                let after = next(after: valueIndex)
                if target >= child && target < after {
                    if node.kind == .object {
                        JSONPath.appendMember(String(decoding: raw(self[child]), as: UTF8.self), to: &path)
                    } else {
                        path += "[\(position)]"
                    }
                    current = valueIndex
                    found = true
                    break
                }
                child = after
                position += 1
            }
            if !found { break }
        }
        return path
    }
}
