import HTTPTypes

extension StubTransport {
    /// A method and path that requests are matched on.
    struct Key: Equatable, CustomStringConvertible {
        let method: HTTPRequest.Method
        /// Without its leading `/`.
        let path: String
        let hasQuery: Bool

        init(method: HTTPRequest.Method, path: String) {
            self.method = method
            self.path = path.hasPrefix("/") ? String(path.dropFirst()) : path
            hasQuery = path.contains("?")
        }

        func matches(_ request: ReceivedRequest) -> Bool {
            guard request.method == method else { return false }
            var sent = Substring(request.path)
            if sent.hasPrefix("/") { sent = sent.dropFirst() }
            if !hasQuery, let query = sent.firstIndex(of: "?") { sent = sent[..<query] }
            return sent == path
        }

        var description: String { "\(method) /\(path)" }
    }

    /// What a stub answers with: canned responses in order, or a closure per request.
    enum Answers {
        case responses([StubResponse])
        case answer(@Sendable (ReceivedRequest) -> StubResponse)
    }

    /// One method and path's answers, and which response answers next.
    struct Stub {
        let key: Key
        let answers: Answers
        var answered = 0

        /// The next request's answer, made outside the transport's lock: the app's closure
        /// may take its time.
        mutating func next() -> @Sendable (ReceivedRequest) -> StubResponse {
            defer { answered += 1 }
            switch answers {
            case .responses(let responses):
                let response = responses[min(answered, responses.count - 1)]
                return { _ in response }
            case .answer(let answer):
                return answer
            }
        }
    }

    /// A test waiting for a number of requests.
    struct Waiter {
        let id: Int
        let count: Int
        let continuation: CheckedContinuation<[ReceivedRequest]?, Never>
    }

    /// Everything the transport keeps, behind its lock.
    struct State: Sendable {
        var stubs: [Stub] = []
        var received: [ReceivedRequest] = []
        var waiters: [Waiter] = []
        var nextWaiter = 0
        /// Waiters given an id and not yet resumed.
        var pending: Set<Int> = []
        /// Pending waiters cancelled before they were added.
        var cancelled: Set<Int> = []

        /// Resumes the waiters whose count of requests has arrived.
        mutating func wakeWaiters() {
            let count = received.count
            let ready = waiters.filter { $0.count <= count }
            waiters.removeAll { $0.count <= count }
            for waiter in ready {
                pending.remove(waiter.id)
                waiter.continuation.resume(returning: received)
            }
        }
    }
}

extension StubTransport.Answers: Sendable {}
extension StubTransport.Stub: Sendable {}
extension StubTransport.Key: Sendable {}
extension StubTransport.Waiter: Sendable {}
