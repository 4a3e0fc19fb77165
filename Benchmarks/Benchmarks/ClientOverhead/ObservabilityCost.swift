// What recording contract drift and tracing with no tracer bootstrapped add to a call, from
// memory (no network, so microseconds show), interleaved in one process:
// - "drift on a clean response": `ClientPipeline.contractDrift` on, a response with nothing to
//   repair, as a ratio to the same client without it (per mille: 1000 is the same time; the
//   goal is nothing measurable);
// - "tracing, none bootstrapped": `.distributedTracing` with no tracer, as a ratio to no
//   tracing (per mille);
// - "control": a second client like the first, as a ratio to it: how far two identical
//   contenders differ in this process, the noise the two ratios above sit in;
// - "drift per repair": 1,000 items whose `id` arrives as a string, decoded with and without
//   the recorder; the difference of the medians over 1,000 repairs (ns; the goal is ≤ 1 µs).

import Backstop
import BackstopJSON
import BackstopTracing
import Benchmark
import ClientConfigurations
import Foundation
import Loopback
import OpenAPIRuntime

/// An item as a badly behaved backend sends it: its `id` a string.
private struct StringIDItem: Encodable {
    var id: String
    var name: String
}

func registerObservabilityCost() {
    let cleanDrift = BenchmarkMetric.custom("drift on a clean response / off (‰)", useScalingFactor: false)
    let noTracer = BenchmarkMetric.custom("tracing, none bootstrapped / none (‰)", useScalingFactor: false)
    let perRepair = BenchmarkMetric.custom("drift per repair (ns)", useScalingFactor: false)
    let control = BenchmarkMetric.custom("control: the same client again / it (‰)", useScalingFactor: false)
    Benchmark(
        "client/inMemory/observability-interleaved",
        configuration: .init(
            metrics: [cleanDrift, noTracer, perRepair, control], warmupIterations: 1, maxDuration: .seconds(30), maxIterations: 9)
    ) { (benchmark: Benchmark, requests: [Request]) async throws in
        for _ in benchmark.scaledIterations {
            // Shuffled: a small call right after the 1,000-item list pays for the memory that list
            // left behind, so no contender may always follow it.
            let medians = try await interleavedMedians(of: requests, rounds: 200, seed: 42)
            // A ratio, not a difference: the benchmark's tables leave out values below zero.
            func perMille(_ contender: Int, over base: Int) -> Int { Int((medians[contender] / medians[base]) * 1000) }
            benchmark.measurement(cleanDrift, perMille(1, over: 0))
            benchmark.measurement(noTracer, perMille(2, over: 0))
            benchmark.measurement(control, perMille(3, over: 0))
            let nanoseconds = (medians[5] - medians[4]) / 1_000
            benchmark.measurement(perRepair, Int(nanoseconds.components.attoseconds / 1_000_000_000))
        }
    } setup: {
        let one = InMemoryTransport(payload: Item(id: 7, name: "Item 7"))
        let dirty = InMemoryTransport(payload: (0..<1_000).map { StringIDItem(id: "\($0)", name: "Item \($0)") })
        let items = LocalServer.items(1_000)
        func client(drift: Bool = false, tracing: Bool = false, transport: InMemoryTransport) -> APIClient<NoModuleCodes> {
            var pipeline = ClientPipeline(logging: nil, metrics: nil)
            if drift { pipeline.contractDrift = ContractDriftRecorder() }
            if tracing { pipeline.tracing = .distributedTracing }
            return APIClient(
                baseURL: InMemoryTransport.baseURL, contract: backendB, decoder: ResilientJSONDecoder(policy: .lenient),
                pipeline: pipeline, transport: transport)
        }
        let single = Endpoint<Item, NoModuleCodes>(.get, "items/7")
        let list = Endpoint<[Item], NoModuleCodes>(.get, "items")
        let clients = [
            client(transport: one), client(drift: true, transport: one), client(tracing: true, transport: one),
            client(transport: one),
        ]
        var requests: [Request] = clients.map { client in { try await client.send(single) } }
        for recording in [false, true] {
            let client = client(drift: recording, transport: dirty)
            // Checked once, so a contender that repairs nothing fails instead of being timed.
            let response = try await client.response(for: list)
            guard response.payload == items, response.repairs.count == 1_000 else {
                throw LocalServer.Failure("the dirty list gave \(response.repairs.count) repairs")
            }
            requests.append { try await client.send(list) }
        }
        return requests
    }
}
