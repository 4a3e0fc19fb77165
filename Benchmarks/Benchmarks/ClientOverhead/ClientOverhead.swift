// What Backstop's client adds to each request over the raw transport, against a local server.
//
// Benchmarks are named "client/<transport>/<contender>", one request per iteration:
// - "raw": the `ClientTransport` alone, then the body read and unwrapped with the same
//   contract and decoder the client uses, so both sides do the same decoding work;
// - "APIClient": `APIClient.send` through a pipeline that retries by the default rules and has no
//   logging, metrics or timeout: endpoint, call record, the body read and parsed once, size limit;
// - "APIClient+timeout": the same with a pipeline timeout, which runs each exchange in a child task
//   beside a timer child;
// - "APIClient+middlewares": the default pipeline: logging (a handler at info that keeps nothing,
//   so each line is still made), metrics (no-op factory) and retry;
// - "APIClient+tracing": "APIClient" with `.distributedTracing` and no tracer bootstrapped;
// - "raw+childTask": "raw" inside a child task started at once, as APIClient runs each exchange
//   so that its timeout can cancel it: the floor under APIClient's cost;
// - "raw+Foundation": what an app writes by hand without Backstop, the baseline issue 18 names:
//   the transport, the body collected, Foundation's `JSONDecoder` (one, reused) decoding the
//   envelope as a `Decodable` struct, and its code checked.
// Compare each with "raw" of the same transport; the goal is at most 1.05x.
//
// Each benchmark runs in its own process with its own Hummingbird server on 127.0.0.1. The
// "inMemory" transport answers from memory without a network or a server, so its "APIClient"
// minus "raw" is the client's own cost per request in microseconds, free of the scheduling
// noise that moves the networked medians between runs.

import AsyncHTTPClient
import Backstop
import BackstopTracing
import Benchmark
import ClientConfigurations
import Foundation
import Logging
import Loopback
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 50,
        maxDuration: .seconds(4),
        maxIterations: 20_000
    )
    for transport in TransportKind.allCases {
        for contender in Contender.allCases {
            Benchmark("client/\(transport.rawValue)/\(contender.rawValue)") { (benchmark: Benchmark, request: Request) async throws in
                for _ in benchmark.scaledIterations {
                    blackHole(try await request())
                }
            } setup: {
                let server = transport == .inMemory ? InMemoryTransport.baseURL : try await LocalServer.start()
                return try await contender.prepare(
                    transport: transport.make(), server: server, path: "items/7",
                    expecting: Item(id: 7, name: "Item 7"))
            }
        }
    }
    // The contenders of one transport interleaved in one process, request by request in
    // shuffled order, so drift between processes and load that comes and goes touch each alike.
    // Each iteration times 300 rounds and reports each contender's median over raw's, in per mille.
    for transport in TransportKind.allCases {
        let overClient = BenchmarkMetric.custom("APIClient over raw (‰)", useScalingFactor: false)
        let overMiddlewares = BenchmarkMetric.custom("APIClient+middlewares over raw (‰)", useScalingFactor: false)
        let overChild = BenchmarkMetric.custom("raw+childTask over raw (‰)", useScalingFactor: false)
        let overTimeout = BenchmarkMetric.custom("APIClient+timeout over raw (‰)", useScalingFactor: false)
        let overResilience = BenchmarkMetric.custom("APIClient+resilience over raw (‰)", useScalingFactor: false)
        // A ratio, not a difference: the tables leave out values below zero.
        let tracingToClient = BenchmarkMetric.custom("APIClient+tracing (none bootstrapped) / APIClient (‰)", useScalingFactor: false)
        let resilienceToFoundation = BenchmarkMetric.custom("APIClient+resilience / raw+Foundation (‰)", useScalingFactor: false)
        Benchmark(
            "client/\(transport.rawValue)/interleaved",
            configuration: .init(
                metrics: [overClient, overMiddlewares, overChild, overTimeout, overResilience, tracingToClient, resilienceToFoundation],
                warmupIterations: 1,
                maxDuration: .seconds(20), maxIterations: 9)
        ) { (benchmark: Benchmark, requests: [Request]) async throws in
            for _ in benchmark.scaledIterations {
                let medians = try await interleavedMedians(of: requests, rounds: 300, seed: 7)
                func perMille(_ contender: Int) -> Int { Int(((medians[contender] / medians[0]) - 1) * 1000) }
                benchmark.measurement(overClient, perMille(1))
                benchmark.measurement(overMiddlewares, perMille(2))
                benchmark.measurement(overChild, perMille(3))
                benchmark.measurement(overTimeout, perMille(4))
                benchmark.measurement(overResilience, perMille(5))
                benchmark.measurement(tracingToClient, Int((medians[6] / medians[1]) * 1000))
                benchmark.measurement(resilienceToFoundation, Int((medians[5] / medians[7]) * 1000))
            }
        } setup: {
            let server = transport == .inMemory ? InMemoryTransport.baseURL : try await LocalServer.start()
            var requests: [Request] = []
            for contender in Contender.allCases {
                requests.append(
                    try await contender.prepare(
                        transport: transport.make(), server: server, path: "items/7",
                        expecting: Item(id: 7, name: "Item 7")))
            }
            return requests
        }
    }
    registerObservabilityCost()
    registerStageCost()
    registerResilienceBySize()
    registerEveryStage()
    // A list of 1,000 items from memory: what each contender costs per byte of a larger body,
    // where middlewares that read business codes could parse the body again.
    for contender in Contender.allCases {
        Benchmark("client/inMemory.items1000/\(contender.rawValue)") { (benchmark: Benchmark, request: Request) async throws in
            for _ in benchmark.scaledIterations {
                blackHole(try await request())
            }
        } setup: {
            let items = LocalServer.items(1_000)
            return try await contender.prepare(
                transport: InMemoryTransport(payload: items), server: InMemoryTransport.baseURL,
                path: "items", expecting: items)
        }
    }
}

typealias Request = @Sendable () async throws -> any Sendable

enum TransportKind: String, CaseIterable {
    case urlSession, asyncHTTPClient, inMemory

    func make() -> any ClientTransport {
        switch self {
        case .urlSession: URLSessionTransport()
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        case .inMemory: InMemoryTransport(payload: Item(id: 7, name: "Item 7"))
        }
    }
}

enum Contender: String, CaseIterable {
    case raw
    case client = "APIClient"
    case clientWithMiddlewares = "APIClient+middlewares"
    case rawInChildTask = "raw+childTask"
    case clientWithTimeout = "APIClient+timeout"
    /// Every resilience stage on and nothing tripping: a circuit breaker, a concurrency limit,
    /// coalescing and hedging (after a minute, so never), beside the default retry.
    case clientWithResilience = "APIClient+resilience"
    /// `.distributedTracing` with no tracer bootstrapped, as an app that traces only some builds.
    case clientWithTracing = "APIClient+tracing"
    /// A hand-written send and Foundation's decoder, without Backstop.
    case rawFoundation = "raw+Foundation"

    func prepare<Payload: Decodable & Equatable & Sendable>(
        transport: any ClientTransport, server: URL, path: String, expecting expected: Payload
    ) async throws -> Request {
        let decoder = ResilientJSONDecoder()
        let request: @Sendable () async throws -> Payload
        switch self {
        case .raw, .rawInChildTask:
            let httpRequest = HTTPRequest(
                method: .get, scheme: nil, authority: nil, path: "/" + path,
                headerFields: [.accept: "application/json"])
            let raw: @Sendable () async throws -> Payload = {
                let (response, body) = try await transport.send(httpRequest, body: nil, baseURL: server, operationID: "GET \(path)")
                let data = try await Data(collecting: body ?? HTTPBody(), upTo: 10 << 20)
                return try backendB.unwrap(
                    Payload.self, from: data, response: response, decoder: decoder,
                    throwing: APIError<NoModuleCodes, NoModuleCodes>.self
                ).value
            }
            // The same in a child task started at once, as APIClient runs each exchange so its
            // timeout can cancel it: what that task alone costs, thread hop included.
            guard self == .rawInChildTask else {
                request = raw
                break
            }
            request = {
                try await withThrowingTaskGroup(of: Payload.self) { group in
                    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                        group.addImmediateTask(operation: raw)
                    } else {
                        group.addTask(operation: raw)
                    }
                    guard let payload = try await group.next() else { throw LocalServer.Failure("the child task gave nothing") }
                    return payload
                }
            }
        case .rawFoundation:
            let httpRequest = HTTPRequest(
                method: .get, scheme: nil, authority: nil, path: "/" + path,
                headerFields: [.accept: "application/json"])
            let foundation = JSONDecoder()
            request = {
                let (response, body) = try await transport.send(httpRequest, body: nil, baseURL: server, operationID: "GET \(path)")
                guard response.status == .ok else { throw LocalServer.Failure("status \(response.status)") }
                let data = try await Data(collecting: body ?? HTTPBody(), upTo: 10 << 20)
                let envelope = try foundation.decode(BackendBDecodedEnvelope<Payload>.self, from: data)
                guard envelope.code == 200 else { throw LocalServer.Failure("code \(envelope.code): \(envelope.msg)") }
                return envelope.data
            }
        case .client, .clientWithMiddlewares, .clientWithTimeout, .clientWithResilience, .clientWithTracing:
            // The pipeline retries by default in every contender; only the observed one logs and counts,
            // its handler at `debug` so that each call's line is made, as this contender always measured.
            var pipeline = ClientPipeline(logging: nil, metrics: nil)
            if self == .clientWithMiddlewares {
                pipeline.logging = RequestLogging(
                    logger: Logger(label: "bench", factory: { _ in DiscardingLogHandler(logLevel: .debug) }))
                pipeline.metrics = RequestMetrics()
            }
            if self == .clientWithTimeout { pipeline.timeout = .seconds(60) }
            if self == .clientWithTracing { pipeline.tracing = .distributedTracing }
            if self == .clientWithResilience {
                pipeline.circuitBreaker = CircuitBreaker(logger: nil)
                pipeline.concurrencyLimit = ConcurrencyLimit(maximumConcurrentCalls: 64)
                pipeline.coalescing = RequestCoalescing()
                pipeline.hedging = Hedging(delay: .seconds(60))
            }
            let client = APIClient<NoModuleCodes>(
                baseURL: server, contract: backendB, decoder: decoder,
                pipeline: pipeline, transport: transport)
            let endpoint = Endpoint<Payload, NoModuleCodes>(.get, path)
            request = { try await client.send(endpoint) }
        }
        // Checked once, so a broken contender fails instead of being timed.
        guard try await request() == expected else { throw LocalServer.Failure("\(rawValue) answered a wrong payload") }
        return { try await request() }
    }
}
