import Foundation

/// A type that lenient decoding may use in place of a missing or `null` value.
///
/// The standard scalars, `String`, arrays, sets and dictionaries conform. Conform your own
/// types when an empty value is a safe stand-in; a required nested object that does not
/// conform stays an error, because inventing one would hide a broken response.
public protocol DefaultDecodable: Decodable {
    /// The value used when the document has none.
    static var defaultValue: Self { get }
}

extension Bool: DefaultDecodable { public static var defaultValue: Bool { false } }
extension String: DefaultDecodable { public static var defaultValue: String { "" } }
extension Double: DefaultDecodable { public static var defaultValue: Double { 0 } }
extension Float: DefaultDecodable { public static var defaultValue: Float { 0 } }
extension Int: DefaultDecodable { public static var defaultValue: Int { 0 } }
extension Int8: DefaultDecodable { public static var defaultValue: Int8 { 0 } }
extension Int16: DefaultDecodable { public static var defaultValue: Int16 { 0 } }
extension Int32: DefaultDecodable { public static var defaultValue: Int32 { 0 } }
extension Int64: DefaultDecodable { public static var defaultValue: Int64 { 0 } }
extension UInt: DefaultDecodable { public static var defaultValue: UInt { 0 } }
extension UInt8: DefaultDecodable { public static var defaultValue: UInt8 { 0 } }
extension UInt16: DefaultDecodable { public static var defaultValue: UInt16 { 0 } }
extension UInt32: DefaultDecodable { public static var defaultValue: UInt32 { 0 } }
extension UInt64: DefaultDecodable { public static var defaultValue: UInt64 { 0 } }
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension Int128: DefaultDecodable { public static var defaultValue: Int128 { 0 } }
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension UInt128: DefaultDecodable { public static var defaultValue: UInt128 { 0 } }
extension Decimal: DefaultDecodable { public static var defaultValue: Decimal { 0 } }
extension Array: DefaultDecodable where Element: Decodable { public static var defaultValue: [Element] { [] } }
extension Set: DefaultDecodable where Element: Decodable { public static var defaultValue: Set<Element> { [] } }
extension Dictionary: DefaultDecodable where Key: Decodable, Value: Decodable {
    public static var defaultValue: [Key: Value] { [:] }
}
