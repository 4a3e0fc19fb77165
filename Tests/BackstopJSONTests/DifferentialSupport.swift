import BackstopJSON
import Foundation
import Testing

/// Foundation's `JSONDecoder` and a strict `ResilientJSONDecoder`, configured alike, so
/// that every difference a test finds is the decoder's and not the test's.
struct Decoders {
    let foundation = JSONDecoder()
    var ours = ResilientJSONDecoder(policy: .strict)

    init() {}

    init(_ configure: (JSONDecoder, inout ResilientJSONDecoder) -> Void) {
        configure(foundation, &ours)
    }

    func outcomes<T: Decodable & Equatable>(_ type: T.Type, _ data: Data) -> (foundation: Outcome<T>, ours: Outcome<T>) {
        (Outcome { try foundation.decode(type, from: data) }, Outcome { try ours.decode(type, from: data) })
    }

    /// Decodes with both and compares value, or error case and coding path.
    @discardableResult
    func expectSame<T: Decodable & Equatable>(
        _ type: T.Type, _ json: String, _ note: @autoclosure () -> String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome<T> {
        expectSame(type, Data(json.utf8), "\(json) as \(T.self) \(note())", sourceLocation: sourceLocation)
    }

    @discardableResult
    func expectSame<T: Decodable & Equatable>(
        _ type: T.Type, _ data: Data, _ label: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome<T> {
        let (expected, actual) = outcomes(type, data)
        #expect(actual == expected, "\(label()): Foundation \(expected), ResilientJSONDecoder \(actual)", sourceLocation: sourceLocation)
        return expected
    }

    /// Decodes `text` as `T` in every position a value can take: top level, array element,
    /// keyed member, optional member, nested array and dictionary value. Each position reaches
    /// the value through a different container, and each has its own coding path to get right.
    func expectSameEverywhere<T: Codable & Equatable>(
        _ type: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectSame(T.self, text, sourceLocation: sourceLocation)
        expectSame([T].self, "[\(text)]", sourceLocation: sourceLocation)
        expectSame(Box<T>.self, #"{"value":\#(text)}"#, sourceLocation: sourceLocation)
        expectSame(OptionalBox<T>.self, #"{"value":\#(text)}"#, sourceLocation: sourceLocation)
        expectSame(Box<[T]>.self, #"{"value":[\#(text)]}"#, sourceLocation: sourceLocation)
        expectSame(Box<[String: T]>.self, #"{"value":{"k":\#(text)}}"#, sourceLocation: sourceLocation)
        expectSame(SingleValueBox<T>.self, text, sourceLocation: sourceLocation)
        expectSame(UnkeyedBox<T>.self, "[\(text)]", sourceLocation: sourceLocation)
    }
}

struct Box<T: Codable & Equatable>: Codable, Equatable {
    var value: T
}

struct OptionalBox<T: Codable & Equatable>: Codable, Equatable {
    var value: T?
}

/// Reads its value through `singleValueContainer()`, the path custom wrappers take.
struct SingleValueBox<T: Codable & Equatable>: Codable, Equatable {
    var value: T
    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(T.self)
    }
}

/// Reads its value through `unkeyedContainer().decode`, not through `Array`'s own decoding.
struct UnkeyedBox<T: Codable & Equatable>: Codable, Equatable {
    var value: T
    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        value = try container.decode(T.self)
    }
}

/// A key that can be any string, for probing which keys a container exposes.
struct AnyKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// Collects values from `@Sendable` closures (key strategies, custom date readers).
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []

    func record(_ value: Value) {
        lock.lock()
        stored.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
