/// Any JSON value, for payloads whose shape is not known ahead of time.
///
/// Numbers written as whole numbers that fit in `Int64` are ``integer(_:)`` (so large IDs
/// keep every digit); all others are ``double(_:)``. Decodes the same way with Foundation's
/// `JSONDecoder` and with ``ResilientJSONDecoder``.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in `Int64`.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// An object; when a key repeats, the last value wins, as in Foundation.
    case object([String: JSONValue])

    /// The member named `key`, when this is an object that has one.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index`, when this is an array that long.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The kind of value, as repairs name it.
    public var kind: JSONKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .integer, .double: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let state = decoder as? DecoderState {
            self = try Self.decode(from: state, at: state.index, key: nil)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: TapeDecodable {
    /// Builds the value straight from the tape without recursion, so the deepest document
    /// the parser accepts decodes even on a small thread stack.
    static func decode(from state: DecoderState, at valueIndex: Int, key: (any CodingKey)?) throws -> JSONValue {
        let document = state.document
        let rootNode = document[valueIndex]
        guard rootNode.kind == .array || rootNode.kind == .object else { return try scalar(state, valueIndex, key) }
        let lossy = state.allows(.dropInvalidElements)
        let pathDepth = state.path.count
        defer { state.path.removeSubrange(pathDepth...) }
        if let key { state.path.append(.key(key)) }

        var frames = [Frame(node: rootNode, nameInParent: nil)]
        var next = valueIndex + 1
        while true {
            let top = frames.count - 1
            guard frames[top].remaining > 0 else {
                let finished = frames.removeLast()
                guard let parent = frames.indices.last else { return finished.value }
                state.path.removeLast()
                frames[parent].add(finished.value, named: finished.nameInParent)
                continue
            }
            let position = frames[top].count - frames[top].remaining
            frames[top].remaining -= 1
            var name: String?
            let childKey: any CodingKey
            if frames[top].isObject {
                let member = try state.string(document[next], nil)
                name = member
                childKey = StringKey(member)
                next += 1
            } else {
                childKey = IndexKey(position)
            }
            let node = document[next]
            if node.kind == .array || node.kind == .object {
                state.path.append(.key(childKey))
                frames.append(Frame(node: node, nameInParent: name))
                next += 1
                continue
            }
            let child = next
            if lossy {
                try state.absorbingLoss(of: child, JSONValue.self, childKey, .dropped) {
                    frames[top].add(try scalar(state, child, childKey), named: name)
                }
            } else {
                frames[top].add(try scalar(state, child, childKey), named: name)
            }
            next += 1
        }
    }

    /// An array or object being built.
    private struct Frame {
        let isObject: Bool
        let count: Int
        var remaining: Int
        /// The member name this container goes under in its parent object.
        let nameInParent: String?
        var elements: [JSONValue] = []
        var members: [String: JSONValue] = [:]

        init(node: JSONNode, nameInParent: String?) {
            isObject = node.kind == .object
            count = Int(node.length)
            remaining = count
            self.nameInParent = nameInParent
            if isObject { members.reserveCapacity(count) } else { elements.reserveCapacity(count) }
        }

        mutating func add(_ value: JSONValue, named name: String?) {
            // The first of repeated keys wins, as in Foundation.
            if let name {
                if members[name] == nil { members[name] = value }
            } else {
                elements.append(value)
            }
        }

        var value: JSONValue { isObject ? .object(members) : .array(elements) }
    }

    private static func scalar(_ state: DecoderState, _ valueIndex: Int, _ key: (any CodingKey)?) throws -> JSONValue {
        let node = state.document[valueIndex]
        switch node.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .string: return .string(try state.string(node, key))
        case .number:
            let raw = state.document.raw(node)
            if let value = node.flags.contains(.integer)
                ? JSONNumber.integer(raw, negative: node.flags.contains(.negative), as: Int64.self)
                : node.flags.contains(.nonFinite) ? nil : JSONNumber.wholeNumber(raw, as: Int64.self)
            {
                return .integer(value)
            }
            return .double(try state.unwrapFloat(valueIndex, Double.self, key))
        case .array, .object:
            return try decode(from: state, at: valueIndex, key: key)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { first, _ in first }))
    }
}
