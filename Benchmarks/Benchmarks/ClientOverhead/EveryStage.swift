// Issue 33 item 10: the pipeline with every stage on, on Backstop's own transports, against the
// call an app writes by hand on the same transport (`StageSet` in ClientConfigurations says what
// each configuration is):
// - "client/<transport>/every-stage": "raw+Foundation", "APIClient" (`ClientPipeline()`) and
//   "every stage" (`ClientPipeline()` plus a circuit breaker, a concurrency limit of 64,
//   coalescing and hedging after 2 s), interleaved in one process; reports "every stage" and
//   "APIClient" over "raw+Foundation" (per mille), and "raw+Foundation"'s own p50 in µs, so a
//   ratio reads as time too. Goals: at most 1,100 and 1,050. Their loggers are at swift-log's
//   default level, which drops the pipeline's `debug` lines; "every stage, lines kept" logs
//   every call, as an engineer who lowers the logger to `debug` does. "raw+Foundation, again" is
//   the hand-written call timed a second time: its ratio is the run's noise floor. On
//   AsyncHTTPClient, "raw+Foundation, delegate API" (`DelegateAPICall` in Loopback) is the
//   hand-written call on the API `APIClient` uses for a timed call, over the same baseline.
// - "client/<transport>/every-stage-parts": every `StageSet`: the same five, "every stage"
//   without one stage each, and `APIClient` without its timeout and with nothing on, each over
//   "raw+Foundation" (per mille): what a stage costs in company.
// - "client/<transport>/every-stage-blocks": the five of "every-stage", each sending 150
//   requests in a row per round, 11 rounds per iteration, as issue 33's outside harness measured.
// - "client/<transport>/every-stage-parts-blocks": the configurations of "every-stage-parts",
//   in blocks of 150: which part of the pipeline costs a call in blocks.
//
// Transports: "backstopURLSession" is `StreamingURLSessionTransport()`, `APIClient`'s default;
// "backstopAsyncHTTPClient" is `HTTPClientTransport` on `HTTPClient(configuration: .backstop)`,
// one client shared by every configuration; "inMemory" answers from memory, without a network,
// so the microseconds of the pipeline itself show. Each round sends one request of each
// configuration in a shuffled order, sequentially, to a Hummingbird server in the same process.

import AsyncHTTPClient
import Backstop
import BackstopAsyncHTTPClient
import Benchmark
import ClientConfigurations
import Foundation
import Loopback
import OpenAPIRuntime

private enum BackstopTransport: String, CaseIterable {
    case backstopURLSession, backstopAsyncHTTPClient, inMemory

    /// One transport for every configuration of a benchmark, as one app's client would be.
    func make() -> any ClientTransport {
        switch self {
        case .backstopURLSession: StreamingURLSessionTransport()
        case .backstopAsyncHTTPClient:
            HTTPClientTransport(client: HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .backstop))
        case .inMemory: InMemoryTransport(payload: Item(id: 7, name: "Item 7"))
        }
    }
}

func registerEveryStage() {
    for transport in BackstopTransport.allCases {
        for (name, sets, rounds, block) in [
            ("every-stage", [StageSet.handWritten, .handWrittenAgain, .apiClient, .everyStage, .everyStageLogged], 300, 1),
            ("every-stage-parts", StageSet.allCases, 300, 1),
            ("every-stage-blocks", [StageSet.handWritten, .handWrittenAgain, .apiClient, .everyStage, .everyStageLogged], 11, 150),
            ("every-stage-parts-blocks", StageSet.allCases, 11, 150),
        ] {
            // On AsyncHTTPClient, the hand-written call on its delegate API too, which `APIClient`
            // uses for a timed call: the bar's baseline is the async API's call, "raw+Foundation".
            let onDelegateAPI = transport == .backstopAsyncHTTPClient
            let names = sets.map(\.rawValue) + (onDelegateAPI ? [DelegateAPICall.name] : [])
            let metrics = names.dropFirst().map { name in
                BenchmarkMetric.custom("\(name) / raw+Foundation (‰)", useScalingFactor: false)
            }
            // What one hand-written call takes, so a ratio reads as microseconds too.
            let handWritten = BenchmarkMetric.custom("raw+Foundation p50 (µs)", useScalingFactor: false)
            Benchmark(
                "client/\(transport.rawValue)/\(name)",
                configuration: .init(metrics: metrics + [handWritten], warmupIterations: 1, maxDuration: .seconds(40), maxIterations: 9)
            ) { (benchmark: Benchmark, requests: [Request]) async throws in
                for _ in benchmark.scaledIterations {
                    let medians = try await interleavedMedians(of: requests, rounds: rounds, block: block, seed: 33)
                    for (index, metric) in metrics.enumerated() {
                        benchmark.measurement(metric, Int((medians[index + 1] / medians[0]) * 1000))
                    }
                    benchmark.measurement(handWritten, Int(medians[0] / .microseconds(1)))
                }
            } setup: {
                let server = transport == .inMemory ? InMemoryTransport.baseURL : try await LocalServer.start()
                let made = transport.make()
                var requests: [Request] = []
                for set in sets {
                    let request = try await set.request(transport: made, baseURL: server)
                    requests.append { try await request() }
                }
                if onDelegateAPI, let made = made as? HTTPClientTransport {
                    let request = try await DelegateAPICall.request(on: made.transport.configuration.client, baseURL: server)
                    requests.append { try await request() }
                }
                return requests
            }
        }
    }
}
