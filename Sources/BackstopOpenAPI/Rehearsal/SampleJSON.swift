import BackstopJSON
import Foundation

/// A JSON value with its members in the order written, as an answer is served and dirtied:
/// dirt needs exact control over what is a string, what is `null` and what is left out.
package indirect enum SampleJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number as its JSON text: `42`, `9.5`, or on purpose something JSON does not allow (`NaN`).
    case number(String)
    case string(String)
    case array([SampleJSON])
    case object([(String, SampleJSON)])

    package static func == (lhs: SampleJSON, rhs: SampleJSON) -> Bool { lhs.rendered == rhs.rendered }

    /// The value as compact JSON text.
    package var rendered: String {
        var bytes: [UInt8] = []
        render(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value as compact JSON bytes.
    package var data: Data {
        var bytes: [UInt8] = []
        render(into: &bytes)
        return Data(bytes)
    }

    private func render(into bytes: inout [UInt8]) {
        switch self {
        case .null: bytes += Array("null".utf8)
        case .bool(let value): bytes += Array((value ? "true" : "false").utf8)
        case .number(let text): bytes += Array(text.utf8)
        case .string(let text): bytes += JSONText.quoted(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                element.render(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += JSONText.quoted(member.0)
                bytes.append(UInt8(ascii: ":"))
                member.1.render(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A value read from `JSONValue`, objects' members sorted by name (it keeps no order).
    package init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .integer(let number): self = .number(String(number))
        case .double(let number): self = number.isFinite ? .number(String(number)) : .null
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(SampleJSON.init))
        case .object(let members): self = .object(members.sorted { $0.key < $1.key }.map { ($0.key, SampleJSON($0.value)) })
        }
    }

    /// The JSON `data` as a value, read leniently (byte-level dirt repaired) and without recursion, at
    /// most 512 levels deep; `nil` when it is not JSON.
    package init?(parsing data: Data) {
        guard let value = try? ParsedJSON(data).value() else { return nil }
        self.init(value)
    }

    /// How many levels of arrays and objects the value has: a scalar has none.
    package var depth: Int {
        switch self {
        case .array(let elements): 1 + (elements.map(\.depth).max() ?? 0)
        case .object(let members): 1 + (members.map(\.1.depth).max() ?? 0)
        default: 0
        }
    }

    /// A number's JSON text: whole numbers without a fraction.
    package static func text(of number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }
}
