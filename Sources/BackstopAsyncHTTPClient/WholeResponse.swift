import Backstop

#if AsyncHTTPClient
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1
#else
    #error("BackstopAsyncHTTPClient needs Backstop's AsyncHTTPClient trait: .package(name: \"Backstop\", …, traits: [\"AsyncHTTPClient\"])")
#endif

/// Reads one response, head and whole body, through AsyncHTTPClient's delegate API, and fails the
/// request as soon as the body would pass a limit, having kept nothing past it.
///
/// The delegate API, unlike `execute(_:deadline:)`, keeps its deadline until the body's last
/// byte and hands back a task that can be cancelled from outside the task that awaits it
/// (``Backstop/ExchangeCancellation``).
final class WholeResponse: HTTPClientResponseDelegate, @unchecked Sendable {
    // Unchecked: AsyncHTTPClient calls a delegate on its task's event loop only, one call at a time.
    typealias Response = (head: HTTPResponseHead, body: ByteBuffer?)

    private let limit: Int
    private let isHead: Bool
    private var head: HTTPResponseHead?
    private var body: ByteBuffer?

    /// A reader that fails past `limit` bytes of body; `isHead` for a `HEAD` request, whose
    /// response declares a length it does not send.
    init(upTo limit: Int, isHead: Bool) {
        self.limit = limit
        self.isHead = isHead
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        // A declared length over the limit fails before a byte of the body is read, if a body follows.
        if BodyCollection.sendsDeclaredBody(toHEAD: isHead, status: Int(head.status.code)),
            let declared = head.headers.first(name: "content-length").flatMap(Int.init), declared > limit
        {
            return task.eventLoop.makeFailedFuture(BodyCollection.tooLarge(limit))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        guard part.readableBytes <= limit - (body?.readableBytes ?? 0) else {
            return task.eventLoop.makeFailedFuture(BodyCollection.tooLarge(limit))
        }
        if body == nil {
            body = part
        } else {
            var part = part
            body?.writeBuffer(&part)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        // AsyncHTTPClient hands the head over before it finishes a request.
        guard let head else { throw TransportFailure(.other) }
        return (head, body)
    }
}

extension HTTPClient.Task: CancellableExchange {}
