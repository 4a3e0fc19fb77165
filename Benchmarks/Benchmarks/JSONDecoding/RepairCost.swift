// "repairs.<kind>.dirty/BackstopJSON.lenient" and its twin "repairs.<kind>.clean/…": one kind
// of repair made 100,000 times, and the same shape with nothing to repair. The cost of one
// repair is (dirty − clean) / 100,000; `compare.py` prints it per kind.

import BackstopJSON
import Benchmark
import BenchmarkPayloads
import Foundation

enum RepairKind: String, CaseIterable, Sendable {
    /// `null` in `[Int]`: the element is dropped.
    case nullElementDropped
    /// `"x"` in `[Int]`: the element is dropped.
    case badElementDropped
    /// `"42"` in `[Int]`: coerced to `42`.
    case stringCoerced
    /// `"unheard-of"` in `[RepairKindModel.Shade]`: falls back to `unknownCase`.
    case unknownEnumValue
    /// `{"a":1}` for `{a: Int, b: Int}`: `b` defaulted to 0.
    case missingKeyDefaulted
    /// `{"a":1,"b":null}` for `{a: Int, b: Int}`: `b` defaulted to 0.
    case nullMemberDefaulted

    static let count = 100_000

    /// One element of the array, with (`dirty`) or without the repair.
    private func element(dirty: Bool) -> String {
        switch self {
        case .nullElementDropped: dirty ? "null" : "0"
        case .badElementDropped: dirty ? #""x""# : "1"
        case .stringCoerced: dirty ? #""42""# : "42"
        case .unknownEnumValue: dirty ? #""unheard-of""# : #""known""#
        case .missingKeyDefaulted: dirty ? #"{"a":1}"# : #"{"a":1,"b":2}"#
        case .nullMemberDefaulted: dirty ? #"{"a":1,"b":null}"# : #"{"a":1,"b":2}"#
        }
    }

    func json(dirty: Bool) -> String {
        "[" + Array(repeating: element(dirty: dirty), count: Self.count).joined(separator: ",") + "]"
    }

    /// Decodes `data` as this kind's model; returns how many repairs it reported.
    func decode(_ data: Data, with decoder: ResilientJSONDecoder) throws -> Int {
        switch self {
        case .nullElementDropped, .badElementDropped, .stringCoerced:
            return try decoder.decodeWithReport([Int].self, from: data).repairs.count
        case .unknownEnumValue:
            return try decoder.decodeWithReport([HostileKind].self, from: data).repairs.count
        case .missingKeyDefaulted, .nullMemberDefaulted:
            return try decoder.decodeWithReport([TwoInts].self, from: data).repairs.count
        }
    }
}

struct TwoInts: Decodable, Sendable {
    var a: Int
    var b: Int
}

func registerRepairCost() {
    for kind in RepairKind.allCases {
        for dirty in [true, false] {
            let name = "repairs.\(kind.rawValue).\(dirty ? "dirty" : "clean")"
            Benchmark("\(name)/\(Contender.lenient.rawValue)") { (benchmark: Benchmark, data: Data) throws in
                let decoder = ResilientJSONDecoder(policy: .lenient)
                for _ in benchmark.scaledIterations {
                    blackHole(try kind.decode(data, with: decoder))
                }
            } setup: {
                let data = Data(kind.json(dirty: dirty).utf8)
                let repairs = try kind.decode(data, with: ResilientJSONDecoder(policy: .lenient))
                let expected = dirty ? RepairKind.count : 0
                guard repairs == expected else {
                    throw VerificationFailure("\(name): \(repairs) repairs, expected \(expected)")
                }
                return data
            }
        }
    }
}
