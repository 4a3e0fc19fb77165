import AsyncHTTPClient
import Backstop
import Foundation
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession
import Synchronization
import Testing

/// Every suite of the client's tests, one test at a time: several measure how fast calls
/// end, which a stress test running beside them on two cores would distort.
@Suite("Backstop client", .serialized)
enum BackstopClient {}

/// The app-wide codes of the test backend.
enum AppCode: Int, ServerCode {
    case rateLimited = 42901
    case tokenExpired = 40101

    var role: ServerCodeRole? {
        switch self {
        case .rateLimited: .rateLimited
        case .tokenExpired: .tokenExpired
        }
    }
}

/// The item module's own codes.
enum ItemCode: Int, ServerCode {
    case notFound = 40401
}

struct Item: Codable, Sendable, Equatable {
    var id: Int
    var name: String
}

typealias ItemError = APIError<AppCode, ItemCode>

/// Backend B's envelope.
let backendB = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))

/// The two transports every HTTP behaviour is checked with.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case asyncHTTPClient

    var testDescription: String { rawValue }

    func make() -> any ClientTransport {
        switch self {
        case .urlSession: URLSessionTransport()
        case .asyncHTTPClient: AsyncHTTPClientTransport(configuration: .init(client: Self.httpClient))
        }
    }

    /// AsyncHTTPClient retries a refused connection until the request's deadline by
    /// default; off, so Backstop's retry policy and budget decide, and a refusal arrives at once.
    /// Lives for the whole test process, so it is never shut down.
    private static let httpClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}

/// A client for the test server with `middlewares` and `transport`.
func makeClient(
    _ server: TestServer.Running,
    _ transport: TransportKind = .urlSession,
    middlewares: [any ClientMiddleware] = [],
    baseURL: URL? = nil,
    timeout: Duration = .seconds(30),
    maximumResponseBytes: Int = APIClient<AppCode>.defaultMaximumResponseBytes,
    clock: any Clock<Duration> = ContinuousClock()
) -> APIClient<AppCode> {
    APIClient<AppCode>(baseURL: baseURL ?? server.baseURL, contract: backendB, decoder: ResilientJSONDecoder(),
                       middlewares: middlewares, transport: transport.make(), timeout: timeout,
                       maximumResponseBytes: maximumResponseBytes, clock: clock)
}

/// A base URL where nothing listens: connecting is refused at once.
let refusedURL = URL(string: "http://127.0.0.1:1")!

/// The call's error, or `nil` when it succeeded.
func failure<Payload, Module>(
    of client: APIClient<AppCode>, _ endpoint: Endpoint<Payload, Module>
) async -> APIError<AppCode, Module>? {
    do {
        _ = try await client.send(endpoint)
        return nil
    } catch {
        return error
    }
}

/// Counts what reaches the transport, placed last among the middlewares.
struct AttemptCounter: ClientMiddleware {
    private final class Count: Sendable {
        let value = Mutex(0)
    }
    private let count = Count()

    var attempts: Int { count.value.withLock { $0 } }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        count.value.withLock { $0 += 1 }
        return try await next(request, body, baseURL)
    }
}

/// A unique key for a test's requests.
func uniqueKey(_ name: String = #function) -> String {
    "\(name.prefix(while: { $0 != "(" }))-\(UUID().uuidString.prefix(8))"
}

/// The reason of a transport failure; `nil` for success and other layers.
func transportReason<General, Module>(of error: APIError<General, Module>?) -> TransportFailure.Reason? {
    guard case .transport(let failure)? = error else { return nil }
    return failure.reason
}
