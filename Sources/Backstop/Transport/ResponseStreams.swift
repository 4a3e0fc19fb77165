import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of a ``StreamingURLSessionTransport``'s session: it hands each task's response
/// head to the waiting call and its body, chunk by chunk, to the body's reader, counting the bytes.
final class ResponseStreams: NSObject, URLSessionDataDelegate, Sendable {
    typealias Head = (HTTPResponse, HTTPBody?)
    typealias Chunks = AsyncThrowingStream<HTTPBody.ByteChunk, any Error>

    /// What one task is waiting for.
    private struct Exchange {
        /// The caller waiting for the response head; `nil` once it has it.
        var head: CheckedContinuation<Head, any Error>?
        /// The body until it goes to the caller with the head: kept no longer, so that the
        /// caller dropping it ends the stream, which cancels the task.
        var chunks: Chunks?
        let feed: Chunks.Continuation
        let limit: Int
        var received = 0
        /// The call's deadline among the shared timers, when the exchange keeps one: it ends the
        /// exchange, body included, when it passes.
        var deadline: DeadlineTimers.Ticket? = nil

        /// Takes the deadline out of the timers: the exchange has ended.
        func ended() {
            if let deadline { DeadlineTimers.timeouts.cancel(deadline) }
        }
    }

    private let exchanges = LockedValue<[Int: Exchange]>([:])

    /// Runs `task` and answers its response head and a body that streams the rest; when
    /// `timeout` passes first, the task is cancelled and the head, or the body's reading, fails
    /// as `.transport` `timedOut`.
    func exchange(
        _ task: URLSessionDataTask, limit: Int, timeout: Duration? = nil, cancellation: ExchangeCancellation? = nil
    ) async throws -> Head {
        let (chunks, feed) = Chunks.makeStream()
        // The body dropped unread or its reader cancelled: nothing more is wanted.
        feed.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        let id = task.taskIdentifier
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (head: CheckedContinuation<Head, any Error>) in
                exchanges.withLock { $0[id] = Exchange(head: head, chunks: chunks, feed: feed, limit: limit) }
                // Cancelled before the exchange was registered: `onCancel` found nothing to end.
                guard !Task.isCancelled, cancellation?.enter(ExchangeTask(streams: self, task: task)) ?? true else {
                    fail(id, with: CancellationError())
                    task.cancel()
                    return
                }
                if let timeout { keep(timeout, for: task) }
                task.resume()
            }
        } onCancel: {
            task.cancel()
            // The caller goes on at once, whether or not URLSession reports the cancellation.
            fail(id, with: CancellationError())
        }
    }

    /// Ends `task`'s exchange when `timeout` passes, unless it ends first. Scheduled once the
    /// exchange is registered, so a deadline that passes at once finds it to end.
    private func keep(_ timeout: Duration, for task: URLSessionDataTask) {
        let id = task.taskIdentifier
        let ticket = DeadlineTimers.timeouts.schedule(
            ExchangeDeadline(streams: self, task: task, timeout: timeout), at: uptimeDeadline(after: timeout))
        let kept = exchanges.withLock { exchanges in
            guard exchanges[id] != nil else { return false }
            exchanges[id]?.deadline = ticket
            return true
        }
        // Ended already: its deadline goes with it.
        if !kept { DeadlineTimers.timeouts.cancel(ticket) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let id = dataTask.taskIdentifier
        guard let http = response as? HTTPURLResponse, (0...999).contains(http.statusCode) else {
            let code = (response as? HTTPURLResponse)?.statusCode
            fail(id, with: TransportFailure(.other, underlying: InvalidResponse(statusCode: code)))
            completionHandler(.cancel)
            return
        }
        var fields = HTTPFields()
        for (name, value) in http.allHeaderFields {
            guard let name = (name as? String).flatMap({ HTTPField.Name($0) }), let value = value as? String else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        let response = HTTPResponse(status: .init(code: http.statusCode), headerFields: fields)
        // A length counts decoded bytes only when nothing encodes the body.
        let encoding = fields[.contentEncoding]?.lowercased() ?? "identity"
        let isHead = dataTask.originalRequest?.httpMethod == "HEAD"
        let length: HTTPBody.Length =
            if !BodyCollection.sendsDeclaredBody(toHEAD: isHead, status: http.statusCode) {
                .known(0)
            } else if http.expectedContentLength >= 0 && encoding == "identity" {
                .known(http.expectedContentLength)
            } else {
                .unknown
            }
        let (head, chunks, tooLarge): (CheckedContinuation<Head, any Error>?, Chunks?, Bool) = exchanges.withLock { exchanges in
            guard var exchange = exchanges[id] else { return (nil, nil, false) }
            let head = exchange.head
            let chunks = exchange.chunks
            exchange.head = nil
            exchange.chunks = nil
            if case .known(let length) = length, length > exchange.limit {
                exchanges[id] = nil
                exchange.ended()
                exchange.feed.finish(throwing: BodyCollection.tooLarge(exchange.limit))
                return (head, chunks, true)
            }
            exchanges[id] = exchange
            return (head, chunks, false)
        }
        // Refused from its length: not a byte of the body is read.
        completionHandler(tooLarge || head == nil ? .cancel : .allow)
        guard let head, let chunks else { return }
        head.resume(returning: (response, HTTPBody(ResponseChunks(chunks: chunks), length: length, iterationBehavior: .single)))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        let overLimit: Bool = exchanges.withLock { exchanges in
            guard var exchange = exchanges[id] else { return true }
            exchange.received += data.count
            guard exchange.received <= exchange.limit else {
                exchanges[id] = nil
                exchange.ended()
                exchange.feed.finish(throwing: BodyCollection.tooLarge(exchange.limit))
                return true
            }
            exchanges[id] = exchange
            exchange.feed.yield(ArraySlice(data))
            return false
        }
        if overLimit { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // The redirect itself is the response: the pipeline's redirect policy decides where to go.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        exchange.ended()
        if let head = exchange.head {
            head.resume(throwing: error ?? TransportFailure(.other, underlying: InvalidResponse(statusCode: nil)))
            exchange.feed.finish()
        } else if let error {
            exchange.feed.finish(throwing: error)
        } else {
            exchange.feed.finish()
        }
    }

    private func fail(_ id: Int, with error: any Error) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: id) }
        exchange?.ended()
        exchange?.head?.resume(throwing: error)
        exchange?.feed.finish(throwing: error)
    }

    /// An exchange's deadline: when it passes, its task is cancelled and the call goes on at
    /// once, whether or not URLSession reports the cancellation.
    private struct ExchangeDeadline: DeadlineTarget {
        let streams: ResponseStreams
        let task: URLSessionDataTask
        let timeout: Duration

        func deadlinePassed() {
            task.cancel()
            streams.fail(task.taskIdentifier, with: TimedOut.failure(after: timeout))
        }
    }

    /// An exchange as ``ExchangeCancellation`` ends it: as the caller's cancellation does.
    private struct ExchangeTask: CancellableExchange {
        let streams: ResponseStreams
        let task: URLSessionDataTask

        func cancel() {
            task.cancel()
            streams.fail(task.taskIdentifier, with: CancellationError())
        }
    }
}
