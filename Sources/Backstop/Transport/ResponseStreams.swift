import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of a ``StreamingURLSessionTransport``'s session: it hands each task's response
/// head to the waiting call and its body, chunk by chunk, to the body's reader, counting the bytes.
///
/// Each task is resumed and cancelled only as its ``DataTaskLifecycle`` allows: whoever ends an
/// exchange (the caller's cancellation, a deadline, a winning hedge, a body dropped or over the
/// limit), its caller goes on at once, and its task is cancelled only when URLSession can take
/// it. A task's entry stays until URLSession reports it complete, so that the delegate knows
/// what to do with a head or bytes that arrive after its caller has gone.
///
/// Nothing calls into a body's stream, a continuation, the timers or the task under the lock:
/// a stream's `yield` or `finish` resumes the task reading it, which waits for that task's own
/// lock, and a task being cancelled holds that lock while its stream's cancellation ends the
/// exchange here, which waits for this lock.
final class ResponseStreams: NSObject, URLSessionDataDelegate, Sendable {
    typealias Head = (HTTPResponse, HTTPBody?)
    typealias Chunks = AsyncThrowingStream<HTTPBody.ByteChunk, any Error>

    /// One task and what its caller is waiting for.
    private struct Exchange {
        var lifecycle = DataTaskLifecycle()
        /// The caller waiting for the response head; `nil` once it has it, or has gone.
        var head: CheckedContinuation<Head, any Error>?
        /// The body until it goes to the caller with the head: kept no longer, so that the
        /// caller dropping it ends the stream, which ends the exchange.
        var chunks: Chunks?
        let feed: Chunks.Continuation
        let limit: Int
        var received = 0
        /// The call's deadline among the shared timers, when the exchange keeps one: it ends the
        /// exchange, body included, when it passes.
        var deadline: DeadlineTimers.Ticket? = nil

        /// Ends the exchange for its caller with `error`, its head and its body: what is left to
        /// do once the lock is let go.
        mutating func end(with error: any Error) -> Ending {
            // A body already ended (too large) keeps the error it ended with.
            let feed = lifecycle.isEnded ? nil : self.feed
            let ending = Ending(error: error, head: head, feed: feed, deadline: deadline, action: lifecycle.end())
            head = nil
            chunks = nil
            deadline = nil
            return ending
        }
    }

    /// What ending an exchange leaves to do once the lock is let go.
    private struct Ending {
        let error: any Error
        var head: CheckedContinuation<Head, any Error>?
        var feed: Chunks.Continuation?
        var deadline: DeadlineTimers.Ticket?
        var action: DataTaskLifecycle.Action

        static let nothing = Ending(error: CancellationError(), head: nil, feed: nil, deadline: nil, action: .none)

        /// Takes the deadline out of the timers, fails the head and the body, and cancels
        /// `task` when its lifecycle says so.
        func perform(on task: URLSessionDataTask) {
            if let deadline { DeadlineTimers.timeouts.cancel(deadline) }
            head?.resume(throwing: error)
            feed?.finish(throwing: error)
            if action == .cancel { task.cancel() }
        }
    }

    private let exchanges = LockedValue<[Int: Exchange]>([:])

    /// Runs `task` and answers its response head and a body that streams the rest; when
    /// `timeout` passes first, the exchange ends and the head, or the body's reading, fails
    /// as `.transport` `timedOut`.
    func exchange(
        _ task: URLSessionDataTask, limit: Int, timeout: Duration? = nil, cancellation: ExchangeCancellation? = nil
    ) async throws -> Head {
        let (chunks, feed) = Chunks.makeStream()
        // The body dropped unread or its reader cancelled: nothing more is wanted.
        feed.onTermination = { [weak self] termination in
            if case .cancelled = termination { self?.end(task, with: CancellationError()) }
        }
        let id = task.taskIdentifier
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (head: CheckedContinuation<Head, any Error>) in
                exchanges.withLock { $0[id] = Exchange(head: head, chunks: chunks, feed: feed, limit: limit) }
                // Cancelled before the exchange was registered: `onCancel` found nothing to end.
                guard !Task.isCancelled, cancellation?.enter(ExchangeTask(streams: self, task: task)) ?? true else {
                    end(task, with: CancellationError())
                    return
                }
                if let timeout { keep(timeout, for: task) }
                let start = exchanges.withLock { $0[id]?.lifecycle.start() ?? .none }
                if start == .resume { task.resume() }
            }
        } onCancel: {
            // The caller goes on at once, whether or not URLSession reports the cancellation.
            end(task, with: CancellationError())
        }
        // The head was made on URLSession's delegate queue, which let go of this lock after
        // making it and before resuming the caller: taking the lock here orders the two for
        // ThreadSanitizer too, which did not always see the continuation's resumption as an
        // ordering when thousands of calls were cancelled at once (1 run in 3).
        exchanges.withLock { _ in }
        return head
    }

    /// Ends `task`'s exchange when `timeout` passes, unless it ends first. Scheduled once the
    /// exchange is registered, so a deadline that passes at once finds it to end.
    private func keep(_ timeout: Duration, for task: URLSessionDataTask) {
        let id = task.taskIdentifier
        let ticket = DeadlineTimers.timeouts.schedule(
            ExchangeDeadline(streams: self, task: task, timeout: timeout), at: uptimeDeadline(after: timeout))
        let kept = exchanges.withLock { exchanges in
            guard exchanges[id]?.lifecycle.isEnded == false else { return false }
            exchanges[id]?.deadline = ticket
            return true
        }
        // Ended already: its deadline goes with it.
        if !kept { DeadlineTimers.timeouts.cancel(ticket) }
    }

    /// Ends `task`'s exchange for its caller with `error`, and cancels the task when its
    /// lifecycle allows; a task not yet resumed is never resumed.
    private func end(_ task: URLSessionDataTask, with error: any Error) {
        let id = task.taskIdentifier
        let ending: Ending = exchanges.withLock { exchanges in
            guard var exchange = exchanges[id], !exchange.lifecycle.isEnded else { return .nothing }
            let ending = exchange.end(with: error)
            // A task never resumed reports nothing to the delegate that needs its entry.
            exchanges[id] = exchange.lifecycle.phase == .completed ? nil : exchange
            return ending
        }
        ending.perform(on: task)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let id = dataTask.taskIdentifier
        let head = Self.head(of: response, to: dataTask)
        let (refused, waiting, chunks, ending): (Bool, CheckedContinuation<Head, any Error>?, Chunks?, Ending) = exchanges.withLock {
            exchanges in
            guard var exchange = exchanges[id] else { return (true, nil, nil, .nothing) }
            defer { exchanges[id] = exchange }
            guard !exchange.lifecycle.headArrived() else { return (true, nil, nil, .nothing) }
            switch head {
            case .failure(let error):
                return (true, nil, nil, exchange.end(with: error))
            case .success(let (_, length)):
                let waiting = exchange.head
                let chunks = exchange.chunks
                exchange.head = nil
                exchange.chunks = nil
                // Refused from its length: not a byte of the body is read.
                guard case .known(let length) = length, length > exchange.limit else { return (false, waiting, chunks, .nothing) }
                return (true, waiting, chunks, exchange.end(with: BodyCollection.tooLarge(exchange.limit)))
            }
        }
        completionHandler(refused ? .cancel : .allow)
        let action = exchanges.withLock { $0[id]?.lifecycle.headAnswered(refused: refused) ?? .none }
        // The head was refused: its refusal is the task's cancellation.
        ending.perform(on: dataTask)
        if action == .cancel { dataTask.cancel() }
        guard case .success(let (response, length)) = head, let waiting, let chunks else { return }
        waiting.resume(returning: (response, HTTPBody(ResponseChunks(chunks: chunks), length: length, iterationBehavior: .single)))
    }

    /// `response` as the pipeline reads it, with the length its body will have; a response
    /// that is not HTTP, or whose status is not three digits, fails the exchange.
    private static func head(of response: URLResponse, to dataTask: URLSessionDataTask) -> Result<
        (HTTPResponse, HTTPBody.Length), TransportFailure
    > {
        guard let http = response as? HTTPURLResponse, (0...999).contains(http.statusCode) else {
            let code = (response as? HTTPURLResponse)?.statusCode
            return .failure(TransportFailure(.other, underlying: InvalidResponse(statusCode: code)))
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
        return .success((response, length))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        let (feed, ending): (Chunks.Continuation?, Ending) = exchanges.withLock { exchanges in
            // Bytes of an exchange that has ended are dropped; its task is being cancelled.
            guard var exchange = exchanges[id], !exchange.lifecycle.isEnded else { return (nil, .nothing) }
            defer { exchanges[id] = exchange }
            exchange.received += data.count
            guard exchange.received <= exchange.limit else {
                return (nil, exchange.end(with: BodyCollection.tooLarge(exchange.limit)))
            }
            return (exchange.feed, .nothing)
        }
        // The delegate's calls come one at a time, so the chunks keep their order; a chunk
        // yielded after the body was ended is dropped by the stream.
        feed?.yield(ArraySlice(data))
        ending.perform(on: dataTask)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // The redirect itself is the response: the pipeline's redirect policy decides where to go.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // Its entry goes: the task is complete, and an exchange already ended owes its caller nothing.
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }), !exchange.lifecycle.isEnded
        else { return }
        if let deadline = exchange.deadline { DeadlineTimers.timeouts.cancel(deadline) }
        if let head = exchange.head {
            head.resume(throwing: error ?? TransportFailure(.other, underlying: InvalidResponse(statusCode: nil)))
            exchange.feed.finish()
        } else if let error {
            exchange.feed.finish(throwing: error)
        } else {
            exchange.feed.finish()
        }
    }

    /// An exchange's deadline: when it passes, the call goes on at once, whether or not
    /// URLSession reports the cancellation of its task.
    private struct ExchangeDeadline: DeadlineTarget {
        let streams: ResponseStreams
        let task: URLSessionDataTask
        let timeout: Duration

        func deadlinePassed() {
            streams.end(task, with: TimedOut.failure(after: timeout))
        }
    }

    /// An exchange as ``ExchangeCancellation`` ends it: as the caller's cancellation does.
    private struct ExchangeTask: CancellableExchange {
        let streams: ResponseStreams
        let task: URLSessionDataTask

        func cancel() {
            streams.end(task, with: CancellationError())
        }
    }
}
