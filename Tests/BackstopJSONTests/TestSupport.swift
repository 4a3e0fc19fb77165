import BackstopJSON
import Foundation

extension ResilientJSONDecoder {
    static var strict: ResilientJSONDecoder { ResilientJSONDecoder(policy: .strict) }
    static var lenient: ResilientJSONDecoder { ResilientJSONDecoder(policy: .lenient) }
}

extension Data {
    init(json: String) { self.init(json.utf8) }
}

/// Which `DecodingError` case was thrown, with its coding path flattened for comparison.
///
/// Keys compare by `stringValue` and `intValue` only: the concrete key types of two
/// decoders differ, and callers can only observe those two properties anyway.
struct ErrorShape: Equatable, CustomStringConvertible {
    enum Case: String { case typeMismatch, valueNotFound, keyNotFound, dataCorrupted, other }
    struct Key: Equatable, CustomStringConvertible {
        var string: String
        var int: Int?
        init(_ key: any CodingKey) {
            string = key.stringValue
            int = key.intValue
        }
        var description: String { int.map { "\(string)#\($0)" } ?? string }
    }

    var kind: Case
    var codingPath: [Key]
    /// For `keyNotFound`, the missing key.
    var key: Key?

    init(_ error: any Error) {
        guard let error = error as? DecodingError else {
            kind = .other
            codingPath = []
            return
        }
        switch error {
        case .typeMismatch(_, let context):
            kind = .typeMismatch
            codingPath = context.codingPath.map(Key.init)
        case .valueNotFound(_, let context):
            kind = .valueNotFound
            codingPath = context.codingPath.map(Key.init)
        case .keyNotFound(let missing, let context):
            kind = .keyNotFound
            codingPath = context.codingPath.map(Key.init)
            key = Key(missing)
        case .dataCorrupted(let context):
            kind = .dataCorrupted
            codingPath = context.codingPath.map(Key.init)
        @unknown default:
            kind = .other
            codingPath = []
        }
    }

    var description: String {
        "\(kind.rawValue) at [\(codingPath.map(\.description).joined(separator: ", "))]" + (key.map { " key \($0)" } ?? "")
    }
}

/// The outcome of one decode, comparable across decoders.
enum Outcome<Value: Equatable>: Equatable, CustomStringConvertible {
    case value(Value)
    case error(ErrorShape)

    init(_ body: () throws -> Value) {
        do { self = .value(try body()) } catch { self = .error(ErrorShape(error)) }
    }

    var description: String {
        switch self {
        case .value(let value): "value \(value)"
        case .error(let shape): "error \(shape)"
        }
    }
}
