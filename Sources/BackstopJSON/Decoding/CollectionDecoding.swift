/// Collections decoded straight from the tape, so that in lenient mode a broken element
/// or entry is dropped instead of failing the whole collection.
protocol TapeDecodable {
    static func decode(from state: DecoderState, at valueIndex: Int, key: (any CodingKey)?) throws -> Self
}

extension DecoderState {
    /// Calls `body` with each element's tape index and position, dropping those that throw
    /// when the policy allows.
    ///
    /// Arrays of scalars come through here, so like `Array`'s loop it spells out what
    /// `absorbingLoss` does rather than pass it a closure per element (canada.json: 3.8%).
    @inline(__always)
    func forEachElement(
        of valueIndex: Int, _ key: (any CodingKey)?, _ type: Any.Type,
        _ body: (_ element: Int, _ position: Int) throws -> Void
    ) throws {
        let array = try arrayIndex(at: valueIndex, key: key)
        let lossy = allows(.dropInvalidElements)
        try with(array, key.map { .key($0) }) {
            var element = array + 1
            for position in 0..<Int(document[array].length) {
                let next = document.next(after: element)
                if lossy {
                    let mark = repairCount
                    do {
                        try body(element, position)
                    } catch  where DecoderState.isAbsorbable(error) {
                        giveUp(element, type, IndexKey(position), .dropped, error, since: mark)
                    }
                } else {
                    try body(element, position)
                }
                element = next
            }
        }
    }
}

extension DecoderState {
    /// An array of scalars, read in one tight loop.
    @inline(__always)
    func scalarArray<S>(_ valueIndex: Int, _ key: (any CodingKey)?, _ read: (Int, IndexKey) throws -> S) throws -> [S] {
        let node = document[valueIndex]
        if node.kind == .array && node.length == 0 { return [] }
        var result: [S] = []
        result.reserveCapacity(Int(node.length))
        try forEachElement(of: valueIndex, key, S.self) { element, position in
            result.append(try read(element, IndexKey(position)))
        }
        return result
    }

    /// Decodes one element of a collection whose element kind is already known.
    ///
    /// Only a model's `init(from:)` needs the element's position on the path; the other kinds
    /// name it through `key` when they report an error or a repair, so no path component is
    /// made and destroyed for each of their elements.
    @inline(__always)
    func element<E: Decodable>(_ type: E.Type, kind: TypeKind, at element: Int, position: Int) throws -> E {
        if case .model = kind { return try with(element, .index(position)) { try type.init(from: self) } }
        return try decodeValue(type, kind: kind, at: element, component: nil, key: IndexKey(position))
    }
}

extension Array: TapeDecodable where Element: Decodable {
    static func decode(from state: DecoderState, at valueIndex: Int, key: (any CodingKey)?) throws -> [Element] {
        // Arrays of the common scalars never get here: their own type kinds read them.
        let kind = state.typeKinds.kind(of: Element.self)
        // One loop, not a closure per element: generic code re-fetches the array's
        // type metadata on every closure call. So the lossy branch spells out what
        // `absorbingLoss` does (1.7% fewer instructions for citm_catalog.json, lenient).
        let document = state.document
        let array = try state.arrayIndex(at: valueIndex, key: key)
        let count = Int(document[array].length)
        let lossy = state.allows(.dropInvalidElements)
        var result: [Element] = []
        result.reserveCapacity(count)
        try state.with(array, key.map { .key($0) }) {
            var element = array + 1
            for position in 0..<count {
                let next = document.next(after: element)
                if lossy {
                    let mark = state.repairCount
                    do {
                        result.append(try state.element(Element.self, kind: kind, at: element, position: position))
                    } catch  where DecoderState.isAbsorbable(error) {
                        state.giveUp(element, Element.self, IndexKey(position), .dropped, error, since: mark)
                    }
                } else {
                    result.append(try state.element(Element.self, kind: kind, at: element, position: position))
                }
                element = next
            }
        }
        return result
    }
}

extension Set: TapeDecodable where Element: Decodable {
    static func decode(from state: DecoderState, at valueIndex: Int, key: (any CodingKey)?) throws -> Set<Element> {
        var result = Set<Element>()
        let kind = state.typeKinds.kind(of: Element.self)
        try state.forEachElement(of: valueIndex, key, Element.self) { element, position in
            result.insert(try state.element(Element.self, kind: kind, at: element, position: position))
        }
        return result
    }
}

/// `[String: Value]` keeps its keys as written, whatever the key strategy, as in Foundation.
extension Dictionary: TapeDecodable where Key == String, Value: Decodable {
    static func decode(from state: DecoderState, at valueIndex: Int, key: (any CodingKey)?) throws -> [String: Value] {
        let document = state.document
        let object = try state.objectIndex(at: valueIndex, key: key)
        let lossy = state.allows(.dropInvalidElements)
        var result: [String: Value] = [:]
        let count = Int(document[object].length)
        result.reserveCapacity(count)
        try state.with(object, key.map { .key($0) }) {
            var keyIndex = object + 1
            for _ in 0..<count {
                let member = try state.string(document[keyIndex], nil)
                let memberKey = StringKey(member, numeric: state.options.usesDefaultKeys)
                let valueIndex = keyIndex + 1
                keyIndex = document.next(after: valueIndex)
                // The first of repeated keys wins, as in Foundation.
                if result[member] != nil { continue }
                func decodeMember() throws {
                    result[member] = try state.decodeNested(Value.self, at: valueIndex, component: .key(memberKey), key: memberKey)
                }
                if lossy {
                    try state.absorbingLoss(of: valueIndex, Value.self, memberKey, .dropped, decodeMember)
                } else {
                    try decodeMember()
                }
            }
        }
        return result
    }
}
