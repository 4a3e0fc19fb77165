// Issue 18's cost goal at more than one body size: "client/<transport>/resilience-by-size" times
// "APIClient+resilience" (every resilience stage on, nothing tripping) beside "raw+Foundation" (a
// hand-written send and Foundation's decoder) for a list of 1, 10 and 100 items in backend B's
// envelope (57 bytes, 0.3 KB and 2.7 KB), interleaved in one process, and reports each size's
// ratio of medians (per mille). The 1-item body is the hardest case for the client: the least
// decoding, where its decoder's speed pays for the least of the pipeline's cost.

import Backstop
import Benchmark
import ClientConfigurations
import Foundation
import Loopback

func registerResilienceBySize() {
    let sizes = LocalServer.listLengths
    for transport in TransportKind.allCases {
        let metrics = sizes.map { size in
            BenchmarkMetric.custom(
                "APIClient+resilience / raw+Foundation, \(size) item\(size == 1 ? "" : "s") (‰)", useScalingFactor: false)
        }
        Benchmark(
            "client/\(transport.rawValue)/resilience-by-size",
            configuration: .init(metrics: metrics, warmupIterations: 1, maxDuration: .seconds(30), maxIterations: 9)
        ) { (benchmark: Benchmark, requests: [Request]) async throws in
            for _ in benchmark.scaledIterations {
                let medians = try await interleavedMedians(of: requests, rounds: 300, seed: 13)
                for (index, metric) in metrics.enumerated() {
                    benchmark.measurement(metric, Int((medians[2 * index + 1] / medians[2 * index]) * 1000))
                }
            }
        } setup: {
            let server = transport == .inMemory ? InMemoryTransport.baseURL : try await LocalServer.start()
            var requests: [Request] = []
            for size in sizes {
                let items = LocalServer.items(size)
                for contender in [Contender.rawFoundation, .clientWithResilience] {
                    let made = transport == .inMemory ? InMemoryTransport(payload: items) : transport.make()
                    requests.append(try await contender.prepare(transport: made, server: server, path: "lists/\(size)", expecting: items))
                }
            }
            return requests
        }
    }
}
