import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Backstop's transport over URLSession, which streams each response body and never follows a
/// redirect itself: the transport ``APIClient`` uses unless given another.
///
/// ```swift
/// let transport = StreamingURLSessionTransport(maximumResponseBytes: 1 << 20)
/// let client = APIClient<AppCode>(baseURL: baseURL, contract: backendB, transport: transport)
/// ```
///
/// swift-openapi-urlsession's `URLSessionTransport` reads a whole body into memory before it
/// hands any of it on when it runs on Linux, so an endless or huge body costs memory before
/// Backstop can count it. This transport reads through a `URLSessionDataDelegate` on every
/// platform, so its rules hold on Linux and Apple platforms alike:
/// - The body arrives chunk by chunk as URLSession receives it.
/// - A `Content-Length` over ``maximumResponseBytes`` is refused before a byte of the body is read:
///   the response comes with that length and a body that cannot be read, which the pipeline
///   turns into `.client` `responseTooLarge`.
/// - The decoded bytes are counted (URLSession inflates gzip and deflate bodies itself), and the
///   request is cancelled as soon as they pass ``maximumResponseBytes``: reading the body then
///   throws `.client` `responseTooLarge`, and memory stays within the limit however much the
///   server sends.
/// - A redirect is handed back as the response it is, never followed: the pipeline's
///   ``RedirectPolicy`` decides, the same way for every transport.
/// - Cancelling the caller's task, or dropping the body unread, ends the call at once and
///   cancels the request. On Linux a request is cancelled only when URLSession can take it: a
///   request ended before its response's head arrives has that head refused when it arrives,
///   since swift-corelibs-foundation stops the process on a cancellation that races a head; see
///   `DataTaskLifecycle`.
/// - Through ``APIClient`` with no middleware in front of it, the total timeout
///   (``ClientPipeline/timeout``) of a call that waits on no authentication cancels the request
///   when it passes, body included: the call needs no task of its own to end at it. A hedged
///   call's first request runs in the caller's task too, and a hedge that wins cancels it.
///
/// Give it the same limit as the pipeline's ``ClientPipeline/maximumResponseBytes`` (both
/// default to ``ClientPipeline/defaultMaximumResponseBytes``): the smaller of the two applies.
///
/// On Linux, swift-corelibs-foundation of Swift 6.3 limits what any URLSession transport can
/// promise (see <doc:WhatBackstopGuaranteesAgainstAHostileServer>): a cancelled request may go on
/// reading, its bytes dropped, until the server stops; a redirect's body is buffered whole before
/// the delegate hears of it; and a connection closed in the middle of a response's head stops
/// the process (fixed in Swift 6.4). swift-openapi-urlsession's `URLSessionTransport` can also
/// stop the process there when a call is cancelled as its response arrives or ends; this
/// transport cannot.
public final class StreamingURLSessionTransport: ClientTransport, DeadlineKeeping, Sendable {
    /// Past this many decoded bytes a response's body is cancelled and reading it throws.
    public let maximumResponseBytes: Int
    private let session: URLSession
    private let streams: ResponseStreams

    /// A transport on a session of its own, made with `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration: its timeouts, caching, cookies and
    ///     proxies. Its `timeoutIntervalForRequest` is an idle timeout; the pipeline's
    ///     ``ClientPipeline/timeout`` bounds the whole call.
    ///   - maximumResponseBytes: Past this many decoded bytes a body is cancelled.
    public init(
        configuration: URLSessionConfiguration = .default,
        maximumResponseBytes: Int = ClientPipeline.defaultMaximumResponseBytes
    ) {
        self.maximumResponseBytes = maximumResponseBytes
        streams = ResponseStreams()
        session = URLSession(configuration: configuration, delegate: streams, delegateQueue: nil)
    }

    deinit {
        // The session keeps its delegate until it is invalidated.
        session.finishTasksAndInvalidate()
    }

    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await send(request, body: body, baseURL: baseURL, timeout: nil)
    }

    /// Sends as ``send(_:body:baseURL:operationID:)`` does, and ends the exchange, body
    /// included, when `timeout` passes or `cancellation` is cancelled, by cancelling the
    /// `URLSessionDataTask`: the pipeline hands over what is left of a call's total timeout, so
    /// that the call needs no task of its own to end at it. The body streams, within
    /// ``maximumResponseBytes``; the pipeline reads it within `maximumBytes`.
    package func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, within timeout: Duration?,
        upTo maximumBytes: Int, cancelledBy cancellation: ExchangeCancellation?
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await send(request, body: body, baseURL: baseURL, timeout: timeout, cancellation: cancellation)
    }

    private func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, timeout: Duration?, cancellation: ExchangeCancellation? = nil
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var urlRequest = try Self.urlRequest(for: request, baseURL: baseURL)
        if let body {
            urlRequest.httpBody = try await Data(collecting: body, upTo: .max)
        }
        let task = session.dataTask(with: urlRequest)
        return try await streams.exchange(task, limit: maximumResponseBytes, timeout: timeout, cancellation: cancellation)
    }

    /// `request` joined to `baseURL` as swift-openapi-urlsession joins them.
    private static func urlRequest(for request: HTTPRequest, baseURL: URL) throws -> URLRequest {
        var urlRequest = URLRequest(url: try request.url(relativeTo: baseURL))
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        return urlRequest
    }
}
