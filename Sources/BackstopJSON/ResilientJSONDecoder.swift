import Foundation

/// A JSON decoder for plain `Codable` models that is faster than Foundation's `JSONDecoder`
/// and, when lenient, repairs what it safely can and reports every repair.
///
/// ```swift
/// let decoder = ResilientJSONDecoder()          // policy .lenient by default
/// let user = try decoder.decode(User.self, from: data)
/// let report = try decoder.decodeWithReport(User.self, from: data)
/// print(report.repairs)                         // what was repaired, where, and how
/// ```
///
/// With ``DecodingPolicy/strict`` it returns the values and throws the `DecodingError`
/// cases and coding paths that Foundation's `JSONDecoder` does for the same valid JSON.
/// The strategies mirror Foundation's, with the same names and spellings.
public struct ResilientJSONDecoder: Sendable {
    /// Which repairs decoding may make; ``DecodingPolicy/lenient`` unless you say otherwise.
    public var policy: DecodingPolicy
    /// How JSON keys are matched to coding keys; ``KeyDecodingStrategy/useDefaultKeys`` unless set.
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
    /// How `Date` values are read; ``DateDecodingStrategy/deferredToDate`` unless set.
    public var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
    /// How `Data` values are read; ``DataDecodingStrategy/base64`` unless set.
    public var dataDecodingStrategy: DataDecodingStrategy = .base64
    /// How strings standing for infinity and NaN are read; ``NonConformingFloatDecodingStrategy/throw`` unless set.
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy = .throw
    /// Values handed to every `init(from:)` through `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = Dictionary()
    /// Receives the repairs of every decode that made any; `nil` reports nowhere.
    public var reporter: (any RepairReporter)?

    /// A decoder with the given policy and reporter and Foundation's default strategies.
    ///
    /// - Parameters:
    ///   - policy: Which repairs decoding may make.
    ///   - reporter: Receives the repairs of every decode that made any; `nil` reports nowhere.
    public init(policy: DecodingPolicy = .lenient, reporter: (any RepairReporter)? = nil) {
        self.policy = policy
        self.reporter = reporter
    }

    /// How JSON keys are matched to coding keys, as in Foundation's `JSONDecoder`.
    public enum KeyDecodingStrategy: Sendable {
        /// Each JSON key matches the coding key with the same string.
        case useDefaultKeys
        /// `user_id` matches `userId`; leading and trailing underscores are kept.
        case convertFromSnakeCase
        /// Maps the coding path ending in each JSON key to the key to match.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are read, as in Foundation's `JSONDecoder`.
    public enum DateDecodingStrategy: Sendable {
        /// `Date`'s own `init(from:)`: seconds since 2001-01-01 as a number.
        case deferredToDate
        /// A number of seconds since 1970-01-01.
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01.
        case millisecondsSince1970
        /// An ISO 8601 string such as `2026-11-24T20:06:50Z`, without fractional seconds.
        case iso8601
        /// A string read by the given formatter.
        case formatted(DateFormatter)
        /// The closure reads the date from the value's decoder.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
    }

    /// How `Data` values are read, as in Foundation's `JSONDecoder`.
    public enum DataDecodingStrategy: Sendable {
        /// `Data`'s own `init(from:)`: an array of byte values.
        case deferredToData
        /// A Base64 string.
        case base64
        /// The closure reads the data from the value's decoder.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
    }

    /// How strings standing for infinity and NaN are read, as in Foundation's `JSONDecoder`.
    public enum NonConformingFloatDecodingStrategy: Sendable {
        /// Infinity and NaN cannot be decoded; reading them throws.
        case `throw`
        /// The given strings stand for positive infinity, negative infinity and NaN.
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// Decodes a value of `type` from a JSON document, delivering any repairs to ``reporter``.
    ///
    /// - Throws: `DecodingError`, as Foundation's `JSONDecoder` does: `dataCorrupted` for
    ///   invalid JSON (its underlying ``JSONParseError`` says where), and the error of the
    ///   first value that neither matches nor can be repaired under ``policy``.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        var repairs: [Repair] = []
        return try decode(type, from: data, repairs: &repairs)
    }

    /// Decodes a value of `type` and returns it with every repair that was made.
    public func decodeWithReport<T: Decodable>(_ type: T.Type, from data: Data) throws -> DecodingReport<T> {
        var repairs: [Repair] = []
        let value = try decode(type, from: data, repairs: &repairs)
        return DecodingReport(value: value, repairs: repairs)
    }

    /// The one decode both public methods make. The repairs come back through `repairs`, not in
    /// a ``DecodingReport``: building a generic report (or a tuple) looks up its type's metadata
    /// on every call, which costs a small object's decode more than a tenth of its time.
    private func decode<T: Decodable>(_ type: T.Type, from data: Data, repairs: inout [Repair]) throws -> T {
        let options = DecodingOptions(self)
        let value: T
        do {
            value = try JSONInputEncoding.withDocument(from: data, policy: policy) { document in
                let state = DecoderState(document: document, options: options)
                if !document.trailingCommas.isEmpty { state.recordTrailingCommas() }
                let value = try state.decodeRoot(type)
                repairs = state.repairs
                return value
            }
        } catch let error as JSONParseError {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "The given data was not valid JSON. \(error)", underlyingError: error))
        }
        if !repairs.isEmpty, let reporter { reporter.report(repairs, decoding: type) }
        return value
    }
}

/// A decoded value together with the repairs that were needed to decode it.
public struct DecodingReport<Value> {
    /// The decoded value.
    public var value: Value
    /// In the order they were made; empty for clean data.
    public var repairs: [Repair]

    /// A report, as a test or a wrapping decoder makes one.
    public init(value: Value, repairs: [Repair]) {
        self.value = value
        self.repairs = repairs
    }
}

extension DecodingReport: Sendable where Value: Sendable {}
extension DecodingReport: Equatable where Value: Equatable {}

/// The decoder's settings, frozen for one decode.
///
/// A decoder with every default carries no ``Settings``: the strategies and the user info
/// are then copied into each decode's state and destroyed with it for nothing, which cost
/// an 88-byte object's decode about 3% of its instructions.
struct DecodingOptions {
    let policy: DecodingPolicy
    let usesDefaultKeys: Bool
    /// `nil` when every strategy is the default and there is no user info and no reporter.
    private let settings: Settings?

    /// What a decoder set that is not the default.
    private final class Settings {
        let keyStrategy: ResilientJSONDecoder.KeyDecodingStrategy
        let dateStrategy: ResilientJSONDecoder.DateDecodingStrategy
        let dataStrategy: ResilientJSONDecoder.DataDecodingStrategy
        let floatStrategy: ResilientJSONDecoder.NonConformingFloatDecodingStrategy
        let userInfo: [CodingUserInfoKey: Any]

        init(_ decoder: borrowing ResilientJSONDecoder, userInfo: [CodingUserInfoKey: Any]) {
            keyStrategy = decoder.keyDecodingStrategy
            dateStrategy = decoder.dateDecodingStrategy
            dataStrategy = decoder.dataDecodingStrategy
            floatStrategy = decoder.nonConformingFloatDecodingStrategy
            self.userInfo = userInfo
        }
    }

    var keyStrategy: ResilientJSONDecoder.KeyDecodingStrategy { settings?.keyStrategy ?? .useDefaultKeys }
    var dateStrategy: ResilientJSONDecoder.DateDecodingStrategy { settings?.dateStrategy ?? .deferredToDate }
    var dataStrategy: ResilientJSONDecoder.DataDecodingStrategy { settings?.dataStrategy ?? .base64 }
    var floatStrategy: ResilientJSONDecoder.NonConformingFloatDecodingStrategy { settings?.floatStrategy ?? .throw }
    var userInfo: [CodingUserInfoKey: Any] { settings?.userInfo ?? Dictionary() }

    /// Borrows `decoder`: an initializer takes its arguments owned, which copied the whole
    /// decoder (every strategy, the user info and the reporter) once more per decode.
    init(_ decoder: borrowing ResilientJSONDecoder) {
        policy = decoder.policy
        if case .useDefaultKeys = decoder.keyDecodingStrategy { usesDefaultKeys = true } else { usesDefaultKeys = false }
        let reporter: (any RepairReporter)? = decoder.reporter
        if decoder.userInfo.isEmpty && reporter == nil {
            if usesDefaultKeys, case .deferredToDate = decoder.dateDecodingStrategy, case .base64 = decoder.dataDecodingStrategy,
                case .throw = decoder.nonConformingFloatDecodingStrategy
            {
                settings = nil
            } else {
                settings = Settings(decoder, userInfo: Dictionary())
            }
        } else {
            var info: [CodingUserInfoKey: Any] = [:]
            for (key, value) in decoder.userInfo { info[key] = value }
            if let reporter { info[.repairReporter] = reporter }
            settings = Settings(decoder, userInfo: info)
        }
    }
}
