import Foundation

/// A JSON decoder for plain `Codable` models that is faster than Foundation's `JSONDecoder`
/// and, when lenient, repairs what it safely can and reports every repair.
///
/// ```swift
/// var decoder = ResilientJSONDecoder()          // policy .lenient by default
/// let user = try decoder.decode(User.self, from: data)
/// let report = try decoder.decodeWithReport(User.self, from: data)
/// report.repairs                                // what was repaired, where, and how
/// ```
///
/// With ``DecodingPolicy/strict`` it returns the values and throws the `DecodingError`
/// cases and coding paths that Foundation's `JSONDecoder` does for the same valid JSON.
/// The strategies mirror Foundation's, with the same names and spellings.
public struct ResilientJSONDecoder: Sendable {
    /// Which repairs decoding may make; ``DecodingPolicy/lenient`` unless you say otherwise.
    public var policy: DecodingPolicy
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
    public var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
    public var dataDecodingStrategy: DataDecodingStrategy = .base64
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy = .throw
    /// Values handed to every `init(from:)` through `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// Receives the repairs of every decode that made any; `nil` reports nowhere.
    public var reporter: (any RepairReporter)?

    public init(policy: DecodingPolicy = .lenient, reporter: (any RepairReporter)? = nil) {
        self.policy = policy
        self.reporter = reporter
    }

    /// How JSON keys are matched to coding keys, as in Foundation's `JSONDecoder`.
    public enum KeyDecodingStrategy: Sendable {
        case useDefaultKeys
        /// `user_id` matches `userId`; leading and trailing underscores are kept.
        case convertFromSnakeCase
        /// Maps the coding path ending in each JSON key to the key to match.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are read, as in Foundation's `JSONDecoder`.
    public enum DateDecodingStrategy: Sendable {
        case deferredToDate
        case secondsSince1970
        case millisecondsSince1970
        case iso8601
        case formatted(DateFormatter)
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
    }

    /// How `Data` values are read, as in Foundation's `JSONDecoder`.
    public enum DataDecodingStrategy: Sendable {
        case deferredToData
        case base64
        case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
    }

    /// How strings standing for infinity and NaN are read, as in Foundation's `JSONDecoder`.
    public enum NonConformingFloatDecodingStrategy: Sendable {
        case `throw`
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// Decodes a value of `type` from a JSON document, delivering any repairs to ``reporter``.
    ///
    /// - Throws: `DecodingError`, as Foundation's `JSONDecoder` does: `dataCorrupted` for
    ///   invalid JSON (its underlying ``JSONParseError`` says where), and the error of the
    ///   first value that neither matches nor can be repaired under ``policy``.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decodeWithReport(type, from: data).value
    }

    /// Decodes a value of `type` and returns it with every repair that was made.
    public func decodeWithReport<T: Decodable>(_ type: T.Type, from data: Data) throws -> DecodingReport<T> {
        let options = DecodingOptions(self)
        let report: DecodingReport<T>
        do {
            report = try JSONInputEncoding.withDocument(from: data, policy: policy) { document in
                let state = DecoderState(document: document, options: options)
                if !document.trailingCommas.isEmpty { state.recordTrailingCommas() }
                let value = try state.decodeRoot(type)
                return DecodingReport(value: value, repairs: state.repairs)
            }
        } catch let error as JSONParseError {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: "The given data was not valid JSON. \(error)", underlyingError: error))
        }
        if !report.repairs.isEmpty, let reporter { reporter.report(report.repairs, decoding: type) }
        return report
    }
}

/// A decoded value together with the repairs that were needed to decode it.
public struct DecodingReport<Value> {
    public var value: Value
    /// In the order they were made; empty for clean data.
    public var repairs: [Repair]

    public init(value: Value, repairs: [Repair]) {
        self.value = value
        self.repairs = repairs
    }
}

extension DecodingReport: Sendable where Value: Sendable {}
extension DecodingReport: Equatable where Value: Equatable {}

/// The decoder's settings, frozen for one decode.
struct DecodingOptions {
    let policy: DecodingPolicy
    let keyStrategy: ResilientJSONDecoder.KeyDecodingStrategy
    let usesDefaultKeys: Bool
    let dateStrategy: ResilientJSONDecoder.DateDecodingStrategy
    let dataStrategy: ResilientJSONDecoder.DataDecodingStrategy
    let floatStrategy: ResilientJSONDecoder.NonConformingFloatDecodingStrategy
    let userInfo: [CodingUserInfoKey: Any]

    init(_ decoder: ResilientJSONDecoder) {
        policy = decoder.policy
        keyStrategy = decoder.keyDecodingStrategy
        if case .useDefaultKeys = decoder.keyDecodingStrategy { usesDefaultKeys = true } else { usesDefaultKeys = false }
        dateStrategy = decoder.dateDecodingStrategy
        dataStrategy = decoder.dataDecodingStrategy
        floatStrategy = decoder.nonConformingFloatDecodingStrategy
        var info: [CodingUserInfoKey: Any] = [:]
        for (key, value) in decoder.userInfo { info[key] = value }
        if let reporter = decoder.reporter { info[.repairReporter] = reporter }
        userInfo = info
    }
}
