import AsyncHTTPClient
import Backstop
import BackstopAsyncHTTPClient
import Foundation
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The two transports every HTTP behaviour is checked with.
public enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case asyncHTTPClient

    public var testDescription: String { rawValue }

    /// A new transport of this kind.
    public func make() -> any ClientTransport {
        switch self {
        case .urlSession: StreamingURLSessionTransport()
        case .asyncHTTPClient: HTTPClientTransport(client: Self.httpClient)
        }
    }

    /// A new transport of this kind whose own timeout for each request is `seconds`, as an app
    /// configures it: the session's `timeoutIntervalForRequest`, or the transport's `timeout`.
    public func make(requestTimeout seconds: Double) -> any ClientTransport {
        switch self {
        case .urlSession:
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = seconds
            return StreamingURLSessionTransport(configuration: configuration)
        case .asyncHTTPClient:
            return HTTPClientTransport(client: Self.httpClient, timeout: .milliseconds(Int64(seconds * 1000)))
        }
    }

    /// Configured as Backstop recommends: a refused connection fails at once, so Backstop's
    /// retry policy and budget decide, and redirects come back to Backstop's policy.
    private static var httpClient: HTTPClient { .backstop }
}
