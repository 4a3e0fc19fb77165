// What each resilience stage adds to a call on its own, interleaved in one process per transport:
// "client/<transport>/stages-interleaved" times an `APIClient` with no stage beside the same client
// with one stage each (a circuit breaker, a concurrency limit of 64, coalescing, hedging after 60 s),
// and with all four, nothing tripping. Each iteration times 300 rounds in a shuffled order and
// reports each contender's median as a ratio to the client with no stage (per mille: 1000 is the
// same time), so what an issue's total is made of can be read stage by stage.

import Backstop
import Benchmark
import ClientConfigurations
import Foundation
import Loopback
import OpenAPIRuntime

private enum Stage: String, CaseIterable {
    case none, circuitBreaker, concurrencyLimit, coalescing, hedging, all

    func pipeline() -> ClientPipeline {
        var pipeline = ClientPipeline(logging: nil, metrics: nil)
        if self == .circuitBreaker || self == .all { pipeline.circuitBreaker = CircuitBreaker(logger: nil) }
        if self == .concurrencyLimit || self == .all { pipeline.concurrencyLimit = ConcurrencyLimit(maximumConcurrentCalls: 64) }
        if self == .coalescing || self == .all { pipeline.coalescing = RequestCoalescing() }
        if self == .hedging || self == .all { pipeline.hedging = Hedging(delay: .seconds(60)) }
        return pipeline
    }
}

func registerStageCost() {
    for transport in TransportKind.allCases {
        let metrics = Stage.allCases.dropFirst().map { stage in
            BenchmarkMetric.custom("\(stage.rawValue) / none (‰)", useScalingFactor: false)
        }
        Benchmark(
            "client/\(transport.rawValue)/stages-interleaved",
            configuration: .init(metrics: metrics, warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 9)
        ) { (benchmark: Benchmark, requests: [Request]) async throws in
            for _ in benchmark.scaledIterations {
                let medians = try await interleavedMedians(of: requests, rounds: 300, seed: 11)
                for (index, metric) in metrics.enumerated() {
                    benchmark.measurement(metric, Int((medians[index + 1] / medians[0]) * 1000))
                }
            }
        } setup: {
            let server = transport == .inMemory ? InMemoryTransport.baseURL : try await LocalServer.start()
            let transport = transport.make()
            let endpoint = Endpoint<Item, NoModuleCodes>(.get, "items/7")
            var requests: [Request] = []
            for stage in Stage.allCases {
                let client = APIClient<NoModuleCodes>(
                    baseURL: server, contract: backendB, decoder: ResilientJSONDecoder(), pipeline: stage.pipeline(), transport: transport)
                // Checked once, so a broken contender fails instead of being timed.
                guard try await client.send(endpoint) == Item(id: 7, name: "Item 7") else {
                    throw LocalServer.Failure("\(stage.rawValue) answered a wrong payload")
                }
                requests.append { try await client.send(endpoint) }
            }
            return requests
        }
    }
}
