import AsyncHTTPClient
import Backstop
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

/// The two transports every HTTP behaviour is checked with.
public enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case asyncHTTPClient

    public var testDescription: String { rawValue }

    /// A new transport of this kind.
    public func make() -> any ClientTransport {
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
