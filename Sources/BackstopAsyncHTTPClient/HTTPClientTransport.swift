import AsyncHTTPClient
import Backstop
import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

/// swift-openapi-async-http-client's transport, with every error it throws classified by value
/// as a ``Backstop/TransportFailure``: the transport for `APIClient` on servers.
///
/// ```swift
/// let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .backstop)
/// let client = APIClient<AppCode>(baseURL: baseURL, contract: backendB,
///                                 transport: HTTPClientTransport(client: httpClient))
/// ```
///
/// Every timeout AsyncHTTPClient and SwiftNIO report (connect, read, write, waiting for a
/// pooled connection, TLS handshake, deadline) is `timedOut`, which the pipeline's retry may
/// retry; a closed connection is `connectionLost`, a refused one `cannotConnectToHost`, a
/// failed name lookup `cannotFindHost`, a TLS error `tlsFailure`; see
/// ``Backstop/TransportFailure/init(asyncHTTPClientError:)``. The error thrown is the
/// ``Backstop/TransportFailure``, with AsyncHTTPClient's own error as its `underlying`.
///
/// A call's total timeout (`ClientPipeline.timeout`, 30 s by default) costs no task of its own
/// when no middleware stands in front of this transport and the call waits on no
/// authentication: each request ends at what is left of it up to the response's head, as
/// AsyncHTTPClient's own deadline, and the pipeline reads the body in a task the deadline cancels.
///
/// A call that `APIClient` runs in tasks of its own (a hedged one, or one with a total timeout
/// otherwise) goes on running on the SwiftNIO event loop that answered it until its answer is
/// read, instead of moving to another thread and back: an answer larger than 64 KiB is parsed
/// on the global executor, and the payload is decoded in the caller's task. The pipeline's
/// middlewares may then run on the event loop, so they must not block.
public struct HTTPClientTransport: ClientTransport, TaskPlacing, DeadlineKeeping {
    /// The transport whose errors are classified.
    public var transport: AsyncHTTPClientTransport

    /// A transport on `client`, each request bounded by `timeout` (AsyncHTTPClient's deadline).
    ///
    /// The app owns `client` and shuts it down; configure it with
    /// `HTTPClient.Configuration.backstop` so that Backstop's retry, not AsyncHTTPClient,
    /// decides when a refused connection is tried again, and Backstop's `RedirectPolicy`, not
    /// AsyncHTTPClient, which redirects are followed. The default, `HTTPClient.backstop`, is
    /// configured so. A client that follows redirects itself (`HTTPClient.shared` does) follows
    /// them across origins and from https to http before Backstop sees them.
    ///
    /// A `timeout` too long for AsyncHTTPClient's nanoseconds is as good as none.
    public init(client: HTTPClient = .backstop, timeout: Duration = .seconds(60)) {
        transport = AsyncHTTPClientTransport(
            configuration: .init(client: client, timeout: .nanoseconds(timeout.saturatedNanoseconds)))
    }

    /// Classifies the errors of `transport`.
    public init(_ transport: AsyncHTTPClientTransport) {
        self.transport = transport
    }

    /// A call's attempt tasks go on running on the event loop that answered them
    /// (``EventLoopTaskExecutor``).
    package var taskPlacement: TaskPlacement {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return TaskPlacement(preferring: EventLoopTaskExecutor.shared)
        }
        return .global
    }

    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await Self.send(request, body: body, baseURL: baseURL, operationID: operationID, on: transport)
    }

    /// AsyncHTTPClient lets go of a request's deadline once its head is in.
    package var keepsDeadlineThroughBody: Bool { false }

    /// Sends as ``send(_:body:baseURL:operationID:)`` does, within `timeout` if it is shorter
    /// than this transport's own: the pipeline hands over what is left of a call's total timeout,
    /// so that the call needs no task of its own to end at it.
    package func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, within timeout: Duration
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var transport = transport
        transport.configuration.timeout = min(transport.configuration.timeout, .nanoseconds(timeout.saturatedNanoseconds))
        return try await Self.send(request, body: body, baseURL: baseURL, operationID: operationID, on: transport)
    }

    private static func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, on transport: AsyncHTTPClientTransport
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody): (HTTPResponse, HTTPBody?)
        do {
            (response, responseBody) = try await transport.send(request, body: body, baseURL: baseURL, operationID: operationID)
        } catch {
            throw TransportFailure(asyncHTTPClientError: error)
        }
        // A connection that closes mid-body fails while the body is read, after `send` returned.
        guard let responseBody else { return (response, nil) }
        return (
            response,
            HTTPBody(
                ClassifiedChunks(body: responseBody), length: responseBody.length,
                iterationBehavior: responseBody.iterationBehavior)
        )
    }
}

/// A response body whose read errors are classified as the transport's are.
private struct ClassifiedChunks: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk
    let body: HTTPBody

    struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: HTTPBody.AsyncIterator

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            do {
                return try await chunks.next()
            } catch {
                throw TransportFailure(asyncHTTPClientError: error)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: body.makeAsyncIterator()) }
}

extension HTTPClient.Configuration {
    /// AsyncHTTPClient's defaults, except that
    /// - a refused connection fails at once instead of being tried again until the request's
    ///   deadline: the pipeline's retry policy and budget decide, and the user hears of an outage
    ///   in milliseconds rather than a minute;
    /// - redirects are not followed but handed back, so that the pipeline's
    ///   `RedirectPolicy` decides, as on every transport. A client that follows them itself
    ///   drops `Authorization` and `Cookie` on another origin but forwards every other header
    ///   (an `X-Api-Key`), and follows https to http: Backstop never sees those redirects.
    public static var backstop: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .disallow
        return configuration
    }
}
