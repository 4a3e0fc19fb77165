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
    /// Decodes the raw value and falls back to ``unknownCase`` when no case has it, with any decoder.
    ///
    /// A raw value of the wrong type still throws: only an unknown value of the right type falls back.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(RawValue.self)
        if let known = Self(rawValue: raw) {
            self = known
            return
        }
        self = Self.unknownCase
        RepairSink.record(in: decoder) { path in
            // As `String(reflecting: raw)` reads, written out when read: strings, the common
            // raw values, are kept as they are.
            let excerpt: RepairText = if let raw = raw as? String { .reflecting(raw) } else { .text(String(reflecting: raw)) }
            return Repair(
                path: path, expected: .typeName(Self.self),
                found: Repair.Found(kind: raw is String ? .string : .number, excerptText: excerpt),
                action: .fellBack, reason: .fallback(raw: excerpt, type: Self.self))
        }
    }
}
