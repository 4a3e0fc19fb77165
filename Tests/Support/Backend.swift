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

/// The real client for BadBackend's style B (unless `contract` says otherwise) on `transport`.
///
/// It has no timeout of its own unless given, as a client made by default; with one, its clock
/// is a test clock unless given, so no call times out unless the test advances it. It makes
/// one attempt unless `middlewares` retry.
public func makeClient(
    _ baseURL: URL,
    _ transport: TransportKind = .urlSession,
    contract: EnvelopeContract = .b,
    middlewares: [any ClientMiddleware] = [],
    timeout: Duration? = nil,
    maximumResponseBytes: Int = APIClient<GeneralCode>.defaultMaximumResponseBytes,
    clock: any Clock<Duration> = TestClock()
) -> APIClient<GeneralCode> {
    APIClient<GeneralCode>(baseURL: baseURL, contract: contract, decoder: ResilientJSONDecoder(), middlewares: middlewares,
                           transport: transport.make(), timeout: timeout, maximumResponseBytes: maximumResponseBytes, clock: clock)
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
