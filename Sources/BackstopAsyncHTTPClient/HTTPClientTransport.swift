import Backstop
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Tracing

#if AsyncHTTPClient
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1
    import OpenAPIAsyncHTTPClient
#else
    #error("BackstopAsyncHTTPClient needs Backstop's AsyncHTTPClient trait: .package(name: \"Backstop\", …, traits: [\"AsyncHTTPClient\"])")
#endif

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
/// When no middleware stands in front of this transport and the call waits on no
/// authentication, `APIClient` starts no task for a call's attempt: its total timeout
/// (`ClientPipeline.timeout`, 30 s by default) is what is left of it, handed to each request as
/// AsyncHTTPClient's own deadline, and a hedged call's first request runs in the caller's task,
/// ended from outside when a hedge wins. Such requests go through AsyncHTTPClient's delegate API,
/// which keeps the deadline to the body's last byte: the whole body is read before the response
/// is handed back, within `ClientPipeline.maximumResponseBytes`, and a request body is read whole
/// before it is sent.
///
/// A call's attempt that `APIClient` runs in a task of its own (a hedge, or any attempt behind a
/// middleware or waiting on authentication, when the call is timed or hedged) goes on running on
/// the SwiftNIO event loop that answered it until its answer is read, instead of moving to
/// another thread and back: an answer larger than 64 KiB is parsed on the global executor, and
/// the payload is decoded in the caller's task. The pipeline's middlewares may then run on the
/// event loop, so they must not block.
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

    /// Sends as ``send(_:body:baseURL:operationID:)`` does, within `timeout` if it is shorter
    /// than this transport's own, and reads the whole body before it returns, within
    /// `maximumBytes`: the pipeline hands over what is left of a call's total timeout, so that
    /// the call needs no task of its own to end at it.
    ///
    /// Through AsyncHTTPClient's delegate API (``WholeResponse``), whose deadline covers the
    /// body too and whose task `cancellation` can end from outside: `execute(_:deadline:)`
    /// lets go of its deadline once the head is in, and is cancelled only through the task
    /// that awaits it.
    package func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, within timeout: Duration?,
        upTo maximumBytes: Int, cancelledBy cancellation: ExchangeCancellation?
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let timeLimit = min(transport.configuration.timeout, timeout.map { .nanoseconds($0.saturatedNanoseconds) } ?? .nanoseconds(.max))
        do {
            guard cancellation?.isCancelled != true else { throw CancellationError() }
            let clientRequest = try await Self.clientRequest(request, body: body, baseURL: baseURL)
            let task = transport.configuration.client.execute(
                request: clientRequest, delegate: WholeResponse(upTo: maximumBytes, isHead: request.method == .head),
                eventLoop: .indifferent,
                deadline: .now() + timeLimit)
            cancellation?.enter(task)
            let (head, responseBody) = try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
            return Self.response(head, body: responseBody, for: request.method)
        } catch let failure as ClientFailure {
            throw failure
        } catch {
            throw TransportFailure(asyncHTTPClientError: error)
        }
    }

    /// `request` joined to `baseURL` as swift-openapi-async-http-client joins them, its body
    /// read first: the delegate API takes a body's bytes, and an app's request bodies are in
    /// memory already.
    private static func clientRequest(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws -> HTTPClient.Request {
        let url = try request.url(relativeTo: baseURL)
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields {
            headers.add(name: field.name.canonicalName, value: field.value)
        }
        var bytes: HTTPClient.Body?
        if let body { bytes = .bytes(try await Data(collecting: body, upTo: .max)) }
        return try HTTPClient.Request(url: url, method: HTTPMethod(rawValue: request.method.rawValue), headers: headers, body: bytes)
    }

    /// The response as HTTPTypes carries it; no body for a method whose response has none.
    private static func response(_ head: HTTPResponseHead, body: ByteBuffer?, for method: HTTPRequest.Method) -> (
        HTTPResponse, HTTPBody?
    ) {
        var fields = HTTPFields()
        fields.reserveCapacity(head.headers.count)
        for (name, value) in head.headers {
            // SwiftNIO's parser admits only valid field names; one that is not would be dropped.
            guard let name = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        let response = HTTPResponse(status: .init(code: Int(head.status.code)), headerFields: fields)
        switch method {
        case .head, .connect, .trace: return (response, nil)
        default: return (response, HTTPBody(body.map { ArraySlice($0.readableBytesView) } ?? []))
        }
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
    ///   (an `X-Api-Key`), and follows https to http: Backstop never sees those redirects;
    /// - made when no tracer is bootstrapped (`InstrumentationSystem`), it has no tracer rather
    ///   than swift-distributed-tracing's no-op one: AsyncHTTPClient keeps the tracer it finds
    ///   when a configuration is made, so either makes no span, but each request still starts the
    ///   no-op one's span and works out its attributes. One bootstrapped before is kept.
    public static var backstop: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .disallow
        // About 31,000 instructions a request on the delegate API, which a timed or hedged call
        // uses, and 35,000 on the async API: about 6 % of a whole call over loopback.
        if configuration.tracing.tracer is NoOpTracer { configuration.tracing.tracer = nil }
        return configuration
    }
}
