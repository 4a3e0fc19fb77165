import Foundation

/// Reading a parsed document: the one place that knows how values, members and paths lie
/// on the tape. The decoder, its containers and ``ParsedJSON`` all read through these.
extension JSONDocument {
    // MARK: Values

    /// The raw bytes of a scalar node (strings without their quotes).
    @inline(__always)
    package func raw(_ node: JSONNode) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + Int(node.start), count: Int(node.length))
    }

    /// The index of the value that follows the value at `index`.
    @inline(__always)
    package func next(after index: Int) -> Int {
        let node = nodes[index]
        return node.kind == .array || node.kind == .object ? Int(node.aux) : index + 1
    }

    /// The text of a string node, unescaped when needed.
    @inline(__always)
    func text(of node: JSONNode) -> Result<String, JSONString.UnescapeError> {
        if node.flags.isPlainText { return .success(plainText(of: node)) }
        let raw = raw(node)
        if !node.flags.contains(.escaped) { return .success(String(decoding: raw, as: UTF8.self)) }
        return JSONString.unescape(raw, replacingInvalidUnicode: false, isUTF8: !node.flags.contains(.invalidUTF8)).map(\.text)
    }

    /// The text of a string node whose flags say ``JSONNode/Flags/isPlainText``: its bytes,
    /// copied without checking them again.
    ///
    /// The scanner checked them; `String(decoding:as:)` would check them a second time, which
    /// cost twitter.json 3% of its decode. Before Swift 6.2's `UTF8Span` (and the OS releases
    /// that ship it), it is what remains. An ASCII text of 5 to 15 bytes, short enough to be
    /// stored inside its `String`, is written there directly: checking so few ASCII bytes costs
    /// less than building a `UTF8Span` (for 14 bytes, 140 instructions instead of 215; below
    /// 5 bytes, or not ASCII, more).
    @inline(__always)
    func plainText(of node: JSONNode) -> String {
        let raw = raw(node)
        if raw.count > 4 && raw.count <= 15 && !node.flags.contains(.nonASCII) { return Self.shortText(raw) }
        #if compiler(>=6.2)
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                return String(copying: UTF8Span(unchecked: raw.span, isKnownASCII: !node.flags.contains(.nonASCII)))
            }
        #endif
        return String(decoding: raw, as: UTF8.self)
    }

    /// `bytes`, at most 15 of them, as a `String`; out of line, so that every reader of text
    /// that inlines ``plainText(of:)`` stays small.
    @inline(never)
    private static func shortText(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { text in text.initialize(fromContentsOf: bytes) }
    }

    // MARK: Members

    /// Calls `body` with the tape index of each key of `object` and of its value, in document order.
    @inline(__always)
    func forEachMember(of object: Int, _ body: (_ keyIndex: Int, _ valueIndex: Int) throws -> Void) rethrows {
        var keyIndex = object + 1
        for _ in 0..<Int(self[object].length) {
            try body(keyIndex, keyIndex + 1)
            keyIndex = next(after: keyIndex + 1)
        }
    }

    /// The tape index of the value of the first member of `object` whose decoded key is
    /// `name`, or `nil`. Compares decoded keys, so it finds escaped keys too.
    ///
    /// The slow path of key lookup: kept out of line so that the fast one stays small enough
    /// to be inlined into every `decode(_:forKey:)`.
    @inline(never)
    func member(named name: String, in object: Int) -> Int? {
        var result: Int?
        forEachMember(of: object) { keyIndex, valueIndex in
            guard result == nil, (try? text(of: self[keyIndex]).get()) == name else { return }
            result = valueIndex
        }
        return result
    }

    /// The tape index of the value at `path`, following object members by name from the root.
    func index(at path: [String]) -> Int? {
        var current = 0
        for name in path {
            guard self[current].kind == .object, let found = member(named: name, in: current) else { return nil }
            current = found
        }
        return current
    }

    // MARK: Excerpts

    /// What the document holds at `valueIndex`, for a repair.
    package func found(_ valueIndex: Int) -> Repair.Found {
        Repair.Found(kind: self[valueIndex].jsonKind, excerpt: excerpt(valueIndex))
    }

    /// Up to 40 bytes of the value as written.
    package func excerpt(_ valueIndex: Int) -> String {
        let node = self[valueIndex]
        var start = Int(node.start)
        var length: Int
        switch node.kind {
        case .string:
            start -= 1
            length = Int(node.length) + 2
        case .array, .object:
            length = endOffset(ofContainer: valueIndex) - start
        default:
            length = Int(node.length)
        }
        start = min(max(start, 0), byteCount)
        length = min(max(length, 0), byteCount - start)
        var text = String(decoding: UnsafeBufferPointer(start: base + start, count: min(length, 40)), as: UTF8.self)
        if length > 40 { text += "…" }
        return text
    }

    /// The byte offset just past a container's closing bracket.
    package func endOffset(ofContainer index: Int) -> Int {
        let node = self[index]
        let after = Int(node.aux)
        var offset = byteCount
        if after < count, Int(self[after].start) > Int(node.start) { offset = Int(self[after].start) }
        let closing = node.kind == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")
        while offset > Int(node.start) && base[offset - 1] != closing { offset -= 1 }
        return offset
    }

    /// The path from the root to the value at `target`, found by walking down the tape.
    func path(to target: Int) -> [PathComponent] {
        var path: [PathComponent] = []
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
                    // Raw key text, as trailing-comma repairs have always named members.
                    path.append(
                        node.kind == .object
                            ? .key(StringKey(String(decoding: raw(self[child]), as: UTF8.self))) : .index(position))
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

    // MARK: Coercions

    /// A number written without fraction or exponent, when it fits in an `Int`.
    func wholeNumber(_ valueIndex: Int) -> Int? {
        let node = self[valueIndex]
        guard node.kind == .number, node.flags.contains(.integer) else { return nil }
        return JSONNumber.integer(raw(node), negative: node.flags.contains(.negative), as: Int.self)
    }

    // The lossless coercions of `DecodingPolicy` applied to a value as written, whatever the
    // policy: the decoder asks for them when its policy allows, the property wrappers and
    // Backstop's envelope reader always. They read the bytes as written, so an escaped
    // string (`"\u0034\u0032"`) is never number or bool text.

    /// ``DecodingPolicy/boolsFromNumbersAndStrings``: `1`, `0`, `"1"`, `"0"`, `"true"`, `"false"`.
    func coercedBool(_ valueIndex: Int) -> Bool? {
        let node = self[valueIndex]
        guard node.kind == .number || node.kind == .string else { return nil }
        return Coercion.bool(raw(node))
    }

    /// ``DecodingPolicy/numbersFromStrings`` for integers.
    func coercedInteger<T: FixedWidthInteger>(_ valueIndex: Int, as type: T.Type) -> T? {
        let node = self[valueIndex]
        guard node.kind == .string, !node.flags.contains(.escaped) else { return nil }
        return Coercion.integer(raw(node), as: type)
    }

    /// ``DecodingPolicy/numbersFromStrings`` for floating-point numbers.
    func coercedFloat<T: BinaryFloatingPoint>(_ valueIndex: Int, as type: T.Type) -> T? {
        let node = self[valueIndex]
        guard node.kind == .string, !node.flags.contains(.escaped) else { return nil }
        return Coercion.floatingPoint(raw(node), as: type)
    }

    /// ``DecodingPolicy/stringsFromNumbers``: a number's text as written (`1.50e3` stays `"1.50e3"`).
    func coercedString(_ valueIndex: Int) -> String? {
        let node = self[valueIndex]
        // `NaN` is not the text of a number a backend meant as a string.
        guard node.kind == .number, !node.flags.contains(.nonFinite) else { return nil }
        return String(decoding: raw(node), as: UTF8.self)
    }
}
