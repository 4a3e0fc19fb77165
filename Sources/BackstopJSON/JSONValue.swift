/// Any JSON value, for payloads whose shape is not known ahead of time.
///
/// Numbers written as whole numbers that fit in `Int64` are ``integer(_:)`` (so large IDs
/// keep every digit); all others are ``double(_:)``. Decodes the same way with Foundation's
/// `JSONDecoder` and with ``ResilientJSONDecoder``.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
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
    static func decode(from state: DecoderState, at valueIndex: Int, key: (any CodingKey)?) throws -> JSONValue {
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
                : JSONNumber.wholeNumber(raw, as: Int64.self) {
                return .integer(value)
            }
            return .double(try state.unwrapFloat(valueIndex, Double.self, key))
        case .array: return .array(try [JSONValue].decode(from: state, at: valueIndex, key: key))
        case .object: return .object(try [String: JSONValue].decode(from: state, at: valueIndex, key: key))
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
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
