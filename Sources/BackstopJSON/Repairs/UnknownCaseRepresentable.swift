/// An enum that decodes raw values it does not know as ``unknownCase`` instead of failing.
///
/// Works with any decoder, Foundation's `JSONDecoder` included, because the conformance
/// supplies `init(from:)`. With ``ResilientJSONDecoder`` the fallback is also reported as a
/// ``Repair`` that records the raw value, so the backend's new value shows up in logs.
///
/// ```swift
/// enum Beverage: String, Codable, UnknownCaseRepresentable {
///     case coffee, tea, unknown
///     static var unknownCase: Beverage { .unknown }
/// }
/// ```
public protocol UnknownCaseRepresentable: RawRepresentable, Decodable where RawValue: Decodable {
    /// The case used for any raw value that matches no other case.
    static var unknownCase: Self { get }
}

extension UnknownCaseRepresentable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(RawValue.self)
        if let known = Self(rawValue: raw) {
            self = known
            return
        }
        self = Self.unknownCase
        let repair = Repair(
            path: JSONPath.string(decoder.codingPath),
            expected: String(describing: Self.self),
            found: Repair.Found(kind: raw is String ? .string : .number, excerpt: String(reflecting: raw)),
            action: .fellBack,
            reason: "\(String(reflecting: raw)) is not a known case; used \(String(describing: Self.unknownCase))")
        RepairSink.record(repair, in: decoder)
    }
}
