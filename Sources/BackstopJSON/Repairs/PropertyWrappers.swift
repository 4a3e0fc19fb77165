import Foundation

// Property wrappers for models that must also decode with other decoders (Foundation's
// `JSONDecoder`, a framework's), where ResilientJSONDecoder's policy does not apply. They
// repair the one property they wrap and report to the `RepairReporter` found under
// `CodingUserInfoKey.repairReporter` (ResilientJSONDecoder collects them in its report).

/// A scalar that accepts the lossless alternatives of its type and defaults when absent or `null`.
///
/// The alternatives are those of ``DecodingPolicy/lenient``, checked by the same code: a
/// wrapped property coerces what a lenient decode would, under any decoder.
///
/// ```swift
/// struct Product: Decodable {
///     @LenientScalar var id: Int          // 42, "42", missing → 0
///     @LenientScalar var inStock: Bool    // true, "true", 1, "1"
/// }
/// ```
@propertyWrapper
public struct LenientScalar<Value: LenientScalarValue>: Decodable {
    /// The decoded value, or the type's default when the document had none.
    public var wrappedValue: Value

    /// Wraps a value, as a property's initial value or in code that builds a model.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            wrappedValue = Value.defaultValue
            WrapperRepair.record(Value.self, .null, "null", .defaultedBecauseNull, in: decoder)
        } else if let value = try? container.decode(Value.self) {
            wrappedValue = value
        } else if let (value, found) = Value.coerce(from: container) {
            wrappedValue = value
            WrapperRepair.record(Value.self, found.kind, found.excerpt, .coerced, in: decoder)
        } else {
            // Nothing lossless fits: keep the decoder's own error, which names the path.
            wrappedValue = try container.decode(Value.self)
        }
    }
}

extension LenientScalar: Sendable where Value: Sendable {}
extension LenientScalar: Equatable where Value: Equatable {}
extension LenientScalar: Hashable where Value: Hashable {}
extension LenientScalar: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws { try wrappedValue.encode(to: encoder) }
}

/// A scalar type that ``LenientScalar`` can read from the alternatives that lose nothing.
///
/// The standard scalars follow the rules of ``DecodingPolicy`` (``DecodingPolicy/numbersFromStrings``,
/// ``DecodingPolicy/stringsFromNumbers``, ``DecodingPolicy/boolsFromNumbersAndStrings``), so a
/// wrapped property accepts what the lenient policy accepts, and refuses what it refuses
/// (`"+42"`, `"0x10"`, `"nan"`, `"inf"`), whichever decoder reads it.
public protocol LenientScalarValue: DefaultDecodable {
    /// The value read from a representation other than the type's own, with what was found.
    static func coerce(from container: any SingleValueDecodingContainer) -> (Self, Repair.Found)?
}

extension LenientScalarValue where Self: LosslessStringConvertible {
    /// Your own types: from a string that the type's `init?(_ description:)` accepts.
    public static func coerce(from container: any SingleValueDecodingContainer) -> (Self, Repair.Found)? {
        WrapperRepair.coerce(fromString: container) { Self($0) }
    }
}

extension LenientScalarValue where Self: FixedWidthInteger {
    /// From a string that is exactly a JSON number with a whole value that fits (`"42"`, `"1e3"`).
    public static func coerce(from container: any SingleValueDecodingContainer) -> (Self, Repair.Found)? {
        if let ours = container as? SingleValueContainer { return ours.coerced { $0.coercedInteger($1, as: Self.self) } }
        return WrapperRepair.coerce(fromString: container) { Coercion.integer($0, as: Self.self) }
    }
}

extension LenientScalarValue where Self: BinaryFloatingPoint & LosslessStringConvertible {
    /// From a string that is exactly a JSON number (`"12.5"`, `"-1e3"`; not `"nan"` or `"inf"`).
    public static func coerce(from container: any SingleValueDecodingContainer) -> (Self, Repair.Found)? {
        if let ours = container as? SingleValueContainer { return ours.coerced { $0.coercedFloat($1, as: Self.self) } }
        return WrapperRepair.coerce(fromString: container) { Coercion.floatingPoint($0, as: Self.self) }
    }
}

extension Int: LenientScalarValue {}
extension Int64: LenientScalarValue {}
extension Int32: LenientScalarValue {}
extension UInt: LenientScalarValue {}
extension UInt64: LenientScalarValue {}
extension Double: LenientScalarValue {}
extension Float: LenientScalarValue {}

extension Bool: LenientScalarValue {
    /// From `"true"`, `"false"`, `1`, `0`, `"1"` and `"0"`.
    ///
    /// Other decoders give a number's value, not its text, so there `1.0` counts as `1`.
    public static func coerce(from container: any SingleValueDecodingContainer) -> (Bool, Repair.Found)? {
        if let ours = container as? SingleValueContainer { return ours.coerced { $0.coercedBool($1) } }
        if let number = try? container.decode(Int.self), number == 0 || number == 1 {
            return (number == 1, Repair.Found(kind: .number, excerpt: String(number)))
        }
        return WrapperRepair.coerce(fromString: container) { Coercion.bool($0) }
    }
}

extension String: LenientScalarValue {
    /// From a number, as written (`1.50e3` stays `"1.50e3"`).
    ///
    /// Other decoders give a number's value, not its text, so there it is the value's
    /// shortest text (`"1500.0"`).
    public static func coerce(from container: any SingleValueDecodingContainer) -> (String, Repair.Found)? {
        if let ours = container as? SingleValueContainer { return ours.coerced { $0.coercedString($1) } }
        if let number = try? container.decode(Int64.self) {
            return (String(number), Repair.Found(kind: .number, excerpt: String(number)))
        }
        if let number = try? container.decode(Double.self) {
            return (String(number), Repair.Found(kind: .number, excerpt: String(number)))
        }
        return nil
    }
}

/// An array that drops the elements it cannot decode and keeps the rest.
@propertyWrapper
public struct LossyArray<Element: Decodable>: Decodable {
    /// The elements that decoded, in document order.
    public var wrappedValue: [Element]

    /// Wraps an array, as a property's initial value or in code that builds a model.
    public init(wrappedValue: [Element]) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        while !container.isAtEnd {
            let position = container.currentIndex
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                // Step over the broken element so the next one can be read.
                _ = try? container.decode(SkippedValue.self)
                guard container.currentIndex > position else { throw error }
                WrapperRepair.record(
                    Element.self, .array, "element \(position)", .dropped, in: decoder,
                    appending: IndexKey(position), reason: .summary(error))
            }
        }
        wrappedValue = elements
    }

    private struct SkippedValue: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

extension LossyArray: Sendable where Element: Sendable {}
extension LossyArray: Equatable where Element: Equatable {}
extension LossyArray: Hashable where Element: Hashable {}
extension LossyArray: Encodable where Element: Encodable {
    public func encode(to encoder: any Encoder) throws { try wrappedValue.encode(to: encoder) }
}

/// A value that takes its type's default when the key is absent or `null`, and must otherwise decode.
@propertyWrapper
public struct DefaultIfAbsent<Value: DefaultDecodable>: Decodable {
    /// The decoded value, or the type's default when the key was absent or `null`.
    public var wrappedValue: Value

    /// Wraps a value, as a property's initial value or in code that builds a model.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            wrappedValue = Value.defaultValue
            WrapperRepair.record(Value.self, .null, "null", .defaultedBecauseNull, in: decoder)
        } else {
            wrappedValue = try container.decode(Value.self)
        }
    }
}

extension DefaultIfAbsent: Sendable where Value: Sendable {}
extension DefaultIfAbsent: Equatable where Value: Equatable {}
extension DefaultIfAbsent: Hashable where Value: Hashable {}
extension DefaultIfAbsent: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws { try wrappedValue.encode(to: encoder) }
}

// Synthesized `init(from:)` calls `decode(_:forKey:)` for wrapped properties, which throws
// for an absent key before the wrapper sees anything; these overloads catch that case.
extension KeyedDecodingContainer {
    /// Decodes a ``LenientScalar``, defaulting it when the key is absent instead of throwing `keyNotFound`.
    public func decode<Value>(_ type: LenientScalar<Value>.Type, forKey key: Key) throws -> LenientScalar<Value> {
        try decodeOrDefault(type, forKey: key, Value.self) { LenientScalar(wrappedValue: Value.defaultValue) }
    }

    /// Decodes a ``DefaultIfAbsent``, defaulting it when the key is absent instead of throwing `keyNotFound`.
    public func decode<Value>(_ type: DefaultIfAbsent<Value>.Type, forKey key: Key) throws -> DefaultIfAbsent<Value> {
        try decodeOrDefault(type, forKey: key, Value.self) { DefaultIfAbsent(wrappedValue: Value.defaultValue) }
    }

    /// Decodes a ``LossyArray``, as an empty array when the key is absent instead of throwing `keyNotFound`.
    public func decode<Element>(_ type: LossyArray<Element>.Type, forKey key: Key) throws -> LossyArray<Element> {
        try decodeOrDefault(type, forKey: key, [Element].self) { LossyArray(wrappedValue: []) }
    }

    private func decodeOrDefault<Wrapper: Decodable>(
        _ type: Wrapper.Type, forKey key: Key, _ valueType: Any.Type, _ fallback: () -> Wrapper
    ) throws -> Wrapper {
        let present = contains(key)
        if present, try !decodeNil(forKey: key) {
            // Not `decode(_:forKey:)`: that would call this overload again.
            return try decodeIfPresent(type, forKey: key) ?? fallback()
        }
        // A decoder for the member carries the userInfo (and so the reporter) and the path.
        let decoder = try superDecoder(forKey: key)
        if present {
            WrapperRepair.record(valueType, .null, "null", .defaultedBecauseNull, in: decoder)
        } else {
            WrapperRepair.record(valueType, .missing, "", .defaultedBecauseMissing, in: decoder)
        }
        return fallback()
    }
}

/// Builds and delivers the repairs the wrappers make.
enum WrapperRepair {
    /// `rule` applied to the string another decoder reads, with that string as what was found.
    static func coerce<Value>(fromString container: any SingleValueDecodingContainer, _ rule: (String) -> Value?) -> (Value, Repair.Found)?
    {
        guard let text = try? container.decode(String.self), let value = rule(text) else { return nil }
        return (value, Repair.Found(kind: .string, excerpt: text.debugDescription))
    }

    static func record(
        _ type: Any.Type, _ kind: JSONKind, _ excerpt: String, _ action: Repair.Action, in decoder: any Decoder,
        appending key: (any CodingKey)? = nil, reason: RepairText? = nil
    ) {
        RepairSink.record(in: decoder, appending: key) { path in
            Repair(path: path, expected: .typeName(type), found: Repair.Found(kind: kind, excerpt: excerpt), action: action, reason: reason)
        }
    }
}
