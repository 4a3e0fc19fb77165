import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One GET whose body is counted as it arrives and refused past a limit, for `backstop check`.
///
/// URLSession's `data(for:)` buffers the whole body first (an endless body fills memory), so
/// this reads it through a data delegate: a `Content-Length` over the limit is refused before
/// the body is read, and the body is cancelled the moment it passes the limit (counted as
/// decoded, after any `Content-Encoding`). Cancelling the task that awaits ``response`` cancels
/// the request; the caller's deadline does that.
final class BoundedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Why the download ended without a response.
    enum Failure: Error {
        /// The body is, or says it is, longer than the limit.
        case tooLarge(announced: Int64?)
        /// The transfer failed.
        case transfer(any Error)
        /// It answered without HTTP.
        case notHTTP
    }

    private let limit: Int
    /// Everything below is touched by URLSession's delegate queue and by the awaiting task.
    private let lock = NSLock()
    private var body = Data()
    private var response: HTTPURLResponse?
    private var failure: Failure?
    private var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?

    private init(limit: Int) {
        self.limit = limit
    }

    /// The body and response of `GET url`, or why there are none.
    ///
    /// - Parameters:
    ///   - limit: The most body bytes accepted.
    ///   - idleTimeout: URLSession's own timeout, between bytes; the caller's deadline bounds the whole.
    static func response(for url: URL, limit: Int, idleTimeout: TimeInterval) async throws -> (Data, HTTPURLResponse) {
        let download = BoundedDownload(limit: limit)
        let session = URLSession(configuration: .ephemeral, delegate: download, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URLRequest(url: url, timeoutInterval: idleTimeout))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                download.lock.withLock { download.continuation = continuation }
                task.resume()
                // Cancelled before the handler below could see a started task: end it now.
                if Task.isCancelled { task.cancel() }
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            lock.withLock { failure = .notHTTP }
            return completionHandler(.cancel)
        }
        if http.expectedContentLength > limit {
            lock.withLock { failure = .tooLarge(announced: http.expectedContentLength) }
            return completionHandler(.cancel)
        }
        lock.withLock { self.response = http }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit = lock.withLock {
            guard failure == nil else { return false }
            guard body.count + data.count <= limit else {
                failure = .tooLarge(announced: nil)
                return true
            }
            body.append(data)
            return false
        }
        if overLimit { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, result): (CheckedContinuation<(Data, HTTPURLResponse), any Error>?, Result<(Data, HTTPURLResponse), Failure>) =
            lock.withLock {
                defer { self.continuation = nil }
                let result: Result<(Data, HTTPURLResponse), Failure>
                if let failure {
                    result = .failure(failure)
                } else if let error {
                    result = .failure(.transfer(error))
                } else if let response {
                    result = .success((body, response))
                } else {
                    result = .failure(.notHTTP)
                }
                body = Data()
                return (self.continuation, result)
            }
        continuation?.resume(with: result.mapError { $0 as any Error })
    }
}
