// Envelope unwrapping (Backstop's contracts): taking the payload out of envelopes of shapes
// A, B and C must cost at most 1.1x decoding the bare payload with the same decoder.
//
// Benchmarks are named "unwrap1k/<shape>": "unwrap1k/bare" is the plain decode of the payload,
// "unwrap1k/A|B|C" unwrap the same 1,000 items from each envelope. Compare each with "bare".

import Backstop
import Benchmark
import BenchmarkPayloads
import Foundation

/// The envelope shapes of seed 001, and no envelope at all.
enum UnwrapShape: String, CaseIterable, Sendable {
    case bare
    case a = "A"
    case b = "B"
    case c = "C"

    static let itemCount = 1_000

    /// `nil` for the bare payload, which is decoded without a contract.
    var contract: EnvelopeContract? {
        switch self {
        case .bare: nil
        case .a: EnvelopeContract(code: "statusCode", message: ["message"], payload: "result.data", success: .codes([200]))
        case .b: EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))
        case .c:
            EnvelopeContract(
                code: "statusCode", message: ["message", "result.message"],
                payload: "result.data", success: .codes([200]))
        }
    }

    func body(wrapping payload: String) -> String {
        switch self {
        case .bare: payload
        case .a: #"{"statusCode":200,"message":"success","result":{"data":\#(payload)}}"#
        case .b: #"{"code":200,"msg":"OK","data":\#(payload)}"#
        case .c: #"{"statusCode":200,"result":{"data":\#(payload)}}"#
        }
    }
}

/// The error unwrapping throws here; the benchmark only ever sees success.
typealias UnwrapError = APIError<NoModuleCodes, NoModuleCodes>

func registerEnvelopeUnwrapping() {
    for shape in UnwrapShape.allCases {
        Benchmark("unwrap1k/\(shape.rawValue)") { (benchmark: Benchmark, prepared: Prepared<[Product]>) throws in
            for _ in benchmark.scaledIterations {
                blackHole(try prepared.decode(prepared.data))
            }
        } setup: {
            let items = Array(EnvelopePayload.items().prefix(UnwrapShape.itemCount))
            let payload = String(decoding: try JSONEncoder().encode(items), as: UTF8.self)
            let data = Data(shape.body(wrapping: payload).utf8)
            let decoder = ResilientJSONDecoder()
            let decode: (Data) throws -> [Product]
            if let contract = shape.contract {
                let response = HTTPResponse(status: .ok)
                decode = {
                    try contract.unwrap(
                        [Product].self, from: $0, response: response, decoder: decoder,
                        throwing: UnwrapError.self
                    ).value
                }
            } else {
                decode = { try decoder.decode([Product].self, from: $0) }
            }
            let decoded: [Product]
            do {
                decoded = try decode(data)
            } catch {
                throw VerificationFailure("unwrap1k/\(shape.rawValue) failed: \(error)")
            }
            if decoded != items {
                throw VerificationFailure(
                    "unwrap1k/\(shape.rawValue) decoded something other than the generated items\n"
                        + firstDifference(decoded, items))
            }
            trimHeap()
            return Prepared(data: data, decode: decode)
        }
    }
}
