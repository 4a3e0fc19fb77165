// "hostile.<shape>.<n>/BackstopJSON.lenient": each shape of `HostileShapes.swift` at doubling
// sizes. The table to read is time against n: a linear decoder doubles its time when n doubles.

import BackstopJSON
import Benchmark
import BenchmarkPayloads
import Foundation

func registerHostileShapes() {
    for shape in HostileShape.allCases {
        for n in HostileShape.sizes {
            Benchmark("hostile.\(shape.rawValue).\(n)/\(Contender.lenient.rawValue)") { (benchmark: Benchmark, data: Data) throws in
                let decoder = ResilientJSONDecoder(policy: .lenient)
                for _ in benchmark.scaledIterations {
                    blackHole(try shape.decode(data, with: decoder))
                }
            } setup: {
                let data = Data(shape.json(n).utf8)
                do {
                    _ = try shape.decode(data, with: ResilientJSONDecoder(policy: .lenient))
                } catch {
                    throw VerificationFailure("hostile.\(shape.rawValue).\(n): BackstopJSON.lenient failed: \(String(reflecting: error))")
                }
                return data
            }
        }
    }
}
