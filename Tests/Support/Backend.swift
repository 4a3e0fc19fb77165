import Backstop
import BadBackend
import Clocks
import Foundation
import OpenAPIRuntime

/// Runs a fresh BadBackend on 127.0.0.1, port 0, around `body`, and stops it.
///
/// Its clock is a test clock unless given: tokens never expire and slow answers never come
/// unless the test advances it.
@available(macOS 14, iOS 17, tvOS 17, *)
public func withBackend<Result>(
    _ configuration: BadBackend.Configuration = .init(),
    clock: some Clock<Duration> = TestClock(),
    _ body: (BadBackend, URL) async throws -> Result
) async throws -> Result {
    let backend = BadBackend(configuration: configuration, clock: clock)
    return try await backend.withRunning { url in try await body(backend, url) }
}

/// The real client for BadBackend's style B (unless `contract` says otherwise) on `transport`,
/// with `pipeline`: by default ``quietPipeline()``, which makes one attempt and logs nothing.
public func makeClient(
    _ baseURL: URL,
    _ transport: TransportKind = .urlSession,
    contract: EnvelopeContract = .b,
    pipeline: ClientPipeline = quietPipeline()
) -> APIClient<GeneralCode> {
    APIClient<GeneralCode>(
        baseURL: baseURL, contract: contract, decoder: ResilientJSONDecoder(), pipeline: pipeline,
        transport: transport.make())
}

/// A pipeline that tests start from: no logging, no metrics, no retries, no timeout, and a
/// test clock for its waits, so nothing waits unless the test advances it; a timeout a test
/// sets keeps to the system's time unless it sets `timeoutClock` too. `configure` changes what
/// a test needs.
public func quietPipeline(_ configure: (inout ClientPipeline) -> Void = { _ in }) -> ClientPipeline {
    var pipeline = ClientPipeline(logging: nil, metrics: nil, timeout: nil, retry: .never, clock: TestClock(), random: { 0.5 })
    configure(&pipeline)
    return pipeline
}

/// A base URL where nothing listens: connecting is refused at once.
public let refusedURL = URL(string: "http://127.0.0.1:1")!

/// What BadBackend's echo answers: the request it received.
public struct Echo<Body: Decodable & Sendable>: Decodable, Sendable {
    /// `GET`, `POST`…
    public var method: String
    /// The path with its query, as the server received it.
    public var path: String
    /// The header fields, lowercased names.
    public var headers: [String: String]
    /// The body, decoded.
    public var body: Body
}
