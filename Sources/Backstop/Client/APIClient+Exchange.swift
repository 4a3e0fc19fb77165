import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIClient {
    /// The middlewares and the transport as one function, composed as a generated client composes them.
    func chain(operationID: String) -> @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) {
        let transport = transport
        var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = { request, body, url in
            RequestContext.current?.recordAttempt()
            return try await transport.send(request, body: body, baseURL: url, operationID: operationID)
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { request, body, url in
                try await middleware.intercept(request, body: body, baseURL: url, operationID: operationID, next: inner)
            }
        }
        return next
    }

    /// Sends the request through the chain and reads the whole response body, within the
    /// size limit and `timeout` if there is one; ``apiError(for:)`` says what a thrown error amounts to.
    func exchange(
        _ request: (HTTPRequest, HTTPBody?), operationID: String, timeout: Duration?
    ) async throws -> (HTTPResponse, Data) {
        let send = chain(operationID: operationID)
        let (baseURL, limit) = (baseURL, maximumResponseBytes)
        let run: @Sendable () async throws -> Exchanged = {
            let (response, body) = try await send(request.0, request.1, baseURL)
            return Exchanged(response: response, body: try await BodyCollection.collect(body, upTo: limit))
        }
        // Without a timeout the caller's own task runs the exchange: its cancellation is the only
        // one there is, and the response resumes the caller directly.
        guard let timeout else {
            let exchanged = try await run()
            return (exchanged.response, exchanged.body)
        }
        let deadlines = deadlines
        // One child task, so the timeout can cancel the exchange without cancelling the caller.
        return try await withThrowingTaskGroup(of: Exchanged.self) { group in
            let work: @Sendable () async throws -> Exchanged = {
                let call = deadlines.start(timeout)
                let exchanged: Exchanged
                do {
                    exchanged = try await run()
                } catch {
                    if deadlines.finish(call) { throw TimedOut(timeout: timeout) }
                    throw error
                }
                _ = deadlines.finish(call)
                return exchanged
            }
            // Started on this thread rather than enqueued: no thread is woken to begin the call, and
            // a transport that answers without suspending finishes it here.
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                group.addImmediateTask(operation: work)
            } else {
                group.addTask(operation: work)
            }
            guard let exchanged = try await group.next() else { throw TimedOut(timeout: timeout) }
            return (exchanged.response, exchanged.body)
        }
    }

    /// The error a failed exchange amounts to; anything not Backstop's own is the transport's.
    static func apiError<Module>(for error: any Error) -> APIError<General, Module> {
        let error = TransportFailure.unwrapped(error)
        switch error {
        case let error as APIError<General, Module>: return error
        case let session as AuthenticationError: return .client(session.failure)
        case let timedOut as TimedOut: return .transport(TransportFailure(.timedOut, underlying: timedOut))
        case let tooLarge as BodyCollection.TooLarge:
            return .client(ClientFailure(.responseTooLarge, detail: tooLarge.description))
        default:
            // Whatever a transport throws once its task is cancelled, the cause is the cancellation.
            if Task.isCancelled { return .transport(TransportFailure(.cancelled, underlying: error)) }
            return .transport(TransportFailure(error))
        }
    }
}

private struct Exchanged: Sendable {
    var response: HTTPResponse
    var body: Data
}

/// The call outlived its timeout.
struct TimedOut: Error, CustomStringConvertible {
    let timeout: Duration
    var description: String { "no response within \(timeout)" }
}
