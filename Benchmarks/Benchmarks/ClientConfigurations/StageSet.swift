// Issue 33 item 10's configurations: the pipeline with every stage on, as an app sets it up, against
// the hand-written call it replaces, and the same pipeline with one stage taken out at a time, to
// see what each stage costs in company.

import Backstop
import Foundation
import Logging
import OpenAPIRuntime

/// One way to call `GET /items/7` of backend B (a 55-byte envelope) and get its `Item`.
public enum StageSet: String, CaseIterable, Sendable {
    /// What an app writes by hand without Backstop: the transport, the body collected, one
    /// Foundation `JSONDecoder` (reused) decoding the envelope, and its code checked.
    case handWritten = "raw+Foundation"
    /// ``handWritten`` again, timed as a configuration of its own: its ratio to ``handWritten``
    /// is the run's noise, and a pipeline's ratio no further from 1 than it says nothing.
    case handWrittenAgain = "raw+Foundation, again"
    /// `APIClient` as an app makes it: `ClientPipeline()` (logging, metrics, retry, the 30 s
    /// total timeout, redirects) and the default decoder.
    case apiClient = "APIClient"
    /// `ClientPipeline()` exactly as its defaults make it, logger included (swift-log's default
    /// handler, which drops the pipeline's `debug` lines unless the app bootstraps another): what
    /// `APIClient` runs when an app configures nothing. ``apiClient`` differs only in its log
    /// handler, which keeps nothing.
    case defaultPipeline = "ClientPipeline()"
    /// ``apiClient`` without its total timeout: what the timeout's task costs a call.
    case apiClientWithoutTimeout = "APIClient, no timeout"
    /// `ClientPipeline()` plus `CircuitBreaker(logger: nil)`, `ConcurrencyLimit(maximumConcurrentCalls: 64)`,
    /// `RequestCoalescing()` and `Hedging(delay: .seconds(2))`: issue 33 item 10's "every stage".
    case everyStage = "every stage"
    /// ``everyStage`` without one stage each: what that stage costs beside the others.
    case withoutTimeout = "every stage, no timeout"
    case withoutHedging = "every stage, no hedging"
    case withoutCoalescing = "every stage, no coalescing"
    case withoutLimit = "every stage, no limit"
    case withoutBreaker = "every stage, no breaker"
    case withoutObservation = "every stage, no logging or metrics"
    /// `APIClient` with nothing but what it cannot turn off: no logging, metrics, retry or timeout.
    case bare = "APIClient, nothing on"
    /// ``everyStage`` with its logger at `debug`, as an engineer who reads every call's line sets
    /// it: what making and handing over each line costs.
    case everyStageLogged = "every stage, lines kept"

    /// The set a command line names, by its case name (`apiClient`) or its raw value
    /// (`"APIClient"`), as the instruction counts' executables take it.
    public init?(named name: String) {
        guard let set = Self(rawValue: name) ?? Self.allCases.first(where: { "\($0)" == name }) else { return nil }
        self = set
    }

    /// Every set's case name, `|` between them, for a usage line.
    public static var caseNames: String { allCases.map { "\($0)" }.joined(separator: "|") }

    /// The pipeline, for the sets that use `APIClient`.
    ///
    /// Logging is `ClientPipeline()`'s, but its logger's handler keeps nothing
    /// (``DiscardingLogHandler``), at swift-log's default level, `info`, which drops the
    /// pipeline's `debug` lines as in an app that sets no level; ``everyStageLogged``'s is at
    /// `debug`, so each line is made and handed over: what a line costs Backstop, without what
    /// writing it to a terminal costs the process.
    public func pipeline() -> ClientPipeline? {
        guard self != .handWritten, self != .handWrittenAgain else { return nil }
        if self == .defaultPipeline { return ClientPipeline() }
        var pipeline = ClientPipeline()
        let level: Logger.Level = self == .everyStageLogged ? .debug : .info
        pipeline.logging = RequestLogging(
            logger: Logger(label: "backstop.client", factory: { _ in DiscardingLogHandler(logLevel: level) }))
        if self == .apiClient { return pipeline }
        if self == .apiClientWithoutTimeout {
            pipeline.timeout = nil
            return pipeline
        }
        if self == .bare {
            return ClientPipeline(logging: nil, metrics: nil, timeout: nil, retry: .never)
        }
        if self != .withoutBreaker { pipeline.circuitBreaker = CircuitBreaker(logger: nil) }
        if self != .withoutLimit { pipeline.concurrencyLimit = ConcurrencyLimit(maximumConcurrentCalls: 64) }
        if self != .withoutCoalescing { pipeline.coalescing = RequestCoalescing() }
        if self != .withoutHedging { pipeline.hedging = Hedging(delay: .seconds(2)) }
        if self == .withoutTimeout { pipeline.timeout = nil }
        if self == .withoutObservation {
            pipeline.logging = nil
            pipeline.metrics = nil
        }
        return pipeline
    }

    /// A call of `GET /items/7` on `transport`, checked once: a set that answers a wrong item
    /// fails here instead of being timed.
    public func request(transport: any ClientTransport, baseURL: URL) async throws -> @Sendable () async throws -> Item {
        let request: @Sendable () async throws -> Item
        if let pipeline = pipeline() {
            let client = APIClient<NoModuleCodes>(baseURL: baseURL, contract: backendB, pipeline: pipeline, transport: transport)
            let endpoint = Endpoint<Item, NoModuleCodes>(.get, "items/7")
            request = { try await client.send(endpoint) }
        } else {
            let httpRequest = HTTPRequest(
                method: .get, scheme: nil, authority: nil, path: "/items/7", headerFields: [.accept: "application/json"])
            let decoder = JSONDecoder()
            request = {
                let (response, body) = try await transport.send(httpRequest, body: nil, baseURL: baseURL, operationID: "GET items/7")
                guard response.status == .ok else { throw BenchmarkFailure("status \(response.status)") }
                let data = try await Data(collecting: body ?? HTTPBody(), upTo: 10 << 20)
                let envelope = try decoder.decode(BackendBDecodedEnvelope<Item>.self, from: data)
                guard envelope.code == 200 else { throw BenchmarkFailure("code \(envelope.code): \(envelope.msg)") }
                return envelope.data
            }
        }
        guard try await request() == Item(id: 7, name: "Item 7") else { throw BenchmarkFailure("\(rawValue) answered a wrong item") }
        return request
    }
}
