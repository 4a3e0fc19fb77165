// Foundation, lenient and strict decoding of one payload interleaved in one process, so that
// load which comes and goes on a shared machine touches each alike: the ratios issue 20 sets
// its goals in. Each iteration times rounds in which every decoder decodes the payload (a batch
// of calls for the small ones, each with a fresh decoder as apps make them), the decoder that
// goes first moving each round, and reports Foundation's median time over each decoder's, ×100
// (`266` is 2.66x). The per-decoder benchmarks in JSONDecoding.swift give memory and allocations.

import BackstopJSON
import Benchmark
import BenchmarkPayloads
import Foundation
import Interleaving

func registerInterleaved() {
    registerInterleaved("twitter", TwitterSearch.self, rounds: 15, batch: 1) { try Corpus.load("twitter.json") }
    registerInterleaved("citm_catalog", CITMCatalog.self, rounds: 15, batch: 1) { try Corpus.load("citm_catalog.json") }
    registerInterleaved("canada", FeatureCollection.self, rounds: 9, batch: 1) { try Corpus.load("canada.json") }
    registerInterleaved("envelope20k.clean", Envelope.self, rounds: 9, batch: 1) { Data(EnvelopePayload.json(dirty: false).utf8) }
    registerInterleaved("small88", SmallUser.self, rounds: 21, batch: 2_000) { SmallUser.json }
    registerInterleaved("object1k", Profile.self, rounds: 21, batch: 300) { Profile.json }
    registerInterleaved("envelope10", Envelope.self, rounds: 21, batch: 200) { SmallEnvelope.json }
}

private func registerInterleaved<T: Decodable & Equatable>(
    _ payload: String, _ type: T.Type, rounds: Int, batch: Int, load: @escaping @Sendable () throws -> Data
) {
    let overLenient = BenchmarkMetric.custom("Foundation / lenient (×100)", useScalingFactor: false)
    let overStrict = BenchmarkMetric.custom("Foundation / strict (×100)", useScalingFactor: false)
    Benchmark(
        "\(payload)/interleaved",
        configuration: .init(metrics: [overLenient, overStrict], warmupIterations: 1, maxDuration: .seconds(30), maxIterations: 10)
    ) { (benchmark: Benchmark, data: Data) throws in
        // Each decoder is made per call, as `JSONDecoder()` and `ResilientJSONDecoder()` are in apps.
        let decoders: [(Data) throws -> T] = [
            { try JSONDecoder().decode(T.self, from: $0) },
            { try ResilientJSONDecoder(policy: .lenient).decode(T.self, from: $0) },
            { try ResilientJSONDecoder(policy: .strict).decode(T.self, from: $0) },
        ]
        for _ in benchmark.scaledIterations {
            var times = [[Duration]](repeating: [], count: decoders.count)
            for round in 0..<rounds {
                for offset in decoders.indices {
                    let contender = (round + offset) % decoders.count
                    let start = ContinuousClock.now
                    for _ in 0..<batch { blackHole(try decoders[contender](data)) }
                    times[contender].append(ContinuousClock.now - start)
                }
            }
            let medians = times.map(median)
            benchmark.measurement(overLenient, Int(medians[0] / medians[1] * 100))
            benchmark.measurement(overStrict, Int(medians[0] / medians[2] * 100))
        }
    } setup: {
        let data = try load()
        let reference = try JSONDecoder().decode(T.self, from: data)
        for policy in [DecodingPolicy.lenient, .strict] {
            let report = try ResilientJSONDecoder(policy: policy).decodeWithReport(T.self, from: data)
            guard report.value == reference, report.repairs.isEmpty else {
                throw VerificationFailure("\(payload): BackstopJSON decoded it differently from Foundation")
            }
        }
        trimHeap()
        return data
    }
}
