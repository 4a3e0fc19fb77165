// Hostile shapes: documents built to find work that grows faster than the input. Each shape
// is generated at doubling sizes; a linear decoder takes twice the time for twice the size.
// Plain Foundation and BackstopJSON only, so a stand-alone timing harness can reuse it.

import BackstopJSON
import BenchmarkPayloads
import Foundation

enum HostileShape: String, CaseIterable, Sendable {
    case repeatedKeys, distinctKeys, sharedPrefixKeys, longDigits, manyEscapes
    case nullsDefaulted, elementsDropped, unknownEnumValues, deepNesting

    /// The sizes each shape is decoded at: `n` members, digits, escapes or repairs; for
    /// `deepNesting`, `n` levels spread over as many documents as fit the 512-level limit.
    static let sizes = [12_500, 25_000, 50_000, 100_000, 200_000]

    /// The document of size `n`.
    func json(_ n: Int) -> String {
        switch self {
        case .repeatedKeys:
            return "{" + Array(repeating: #""a":1"#, count: n).joined(separator: ",") + #","b":"x"}"#
        case .distinctKeys:
            return "{" + (0..<n).map { #""k\#($0)":1"# }.joined(separator: ",") + #","a":1}"#
        case .sharedPrefixKeys:
            // Same length, same first and last eight bytes: keys only the middle tells apart.
            let prefix = String(repeating: "p", count: 40)
            let suffix = String(repeating: "s", count: 16)
            return "{"
                + (0..<n).map { #""\#(prefix)\#(String(format: "%08d", $0))\#(suffix)":1"# }
                .joined(separator: ",") + #","a":1}"#
        case .longDigits:
            return "[1." + String(repeating: "1234567890", count: n / 10) + "]"
        case .manyEscapes:
            return #"[""# + String(repeating: #"\u00e9\n"#, count: n / 2) + #""]"#
        case .nullsDefaulted:
            return "[" + Array(repeating: "null", count: n).joined(separator: ",") + "]"
        case .elementsDropped:
            return "[" + Array(repeating: #""x""#, count: n).joined(separator: ",") + "]"
        case .unknownEnumValues:
            return "[" + Array(repeating: #""unheard-of""#, count: n).joined(separator: ",") + "]"
        case .deepNesting:
            let depth = 500
            let one = String(repeating: #"{"a":["#, count: depth / 2) + "1" + String(repeating: "]}", count: depth / 2)
            return "[" + Array(repeating: one, count: max(1, n / depth)).joined(separator: ",") + "]"
        }
    }

    /// Decodes `data` as this shape's model with `decoder`; returns how many repairs it reported.
    func decode(_ data: Data, with decoder: ResilientJSONDecoder) throws -> Int {
        switch self {
        case .repeatedKeys, .distinctKeys, .sharedPrefixKeys:
            return try decoder.decodeWithReport(ThreeFields.self, from: data).repairs.count
        case .longDigits: return try decoder.decodeWithReport([Double].self, from: data).repairs.count
        case .manyEscapes: return try decoder.decodeWithReport([String].self, from: data).repairs.count
        case .nullsDefaulted, .elementsDropped: return try decoder.decodeWithReport([Int].self, from: data).repairs.count
        case .unknownEnumValues: return try decoder.decodeWithReport([HostileKind].self, from: data).repairs.count
        case .deepNesting: return try decoder.decodeWithReport(JSONValue.self, from: data).repairs.count
        }
    }
}

struct ThreeFields: Decodable, Sendable {
    var a: Int
    var b: String?
    var c: Bool?
}

enum HostileKind: String, Decodable, UnknownCaseRepresentable {
    case known, unknown
    static var unknownCase: HostileKind { .unknown }
}
