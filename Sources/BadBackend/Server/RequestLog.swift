/// Every request BadBackend has received for a resource or an auth endpoint, in arrival order,
/// for tests to read; `GET /scenarios` and paths it does not serve are left out.
public actor RequestLog {
    /// The requests so far.
    public private(set) var entries: [LoggedRequest] = []
    private var attempts: [String: Int] = [:]
    private var waiters: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var lastWaiter = 0

    /// An empty log; each ``BadBackend`` makes its own.
    public init() {}

    /// The entries once there are at least `count`; returns at once if there already are.
    ///
    /// Lets a test wait for a request to reach the server (a slow answer, say) without
    /// sleeping. The wait has no timeout of its own: a cancelled task (a test past its time
    /// limit, say) gets the entries so far, possibly fewer than `count`.
    public func entries(atLeast count: Int) async -> [LoggedRequest] {
        guard entries.count < count else { return entries }
        lastWaiter += 1
        let id = lastWaiter
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { continuation.resume() } else { waiters.append((id, count, continuation)) }
            }
        } onCancel: {
            Task { await self.release(id) }
        }
        return entries
    }

    private func release(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume()
    }

    /// Records a request: its attempt number is counted here, and `scenario` decides, from
    /// that number, what the request gets.
    func record(
        method: String, path: String, query: String, credential: String?,
        scenario: @Sendable (_ attempt: Int) -> Scenario?
    ) -> LoggedRequest {
        let key = method + " " + path
        let attempt = (attempts[key] ?? 0) + 1
        attempts[key] = attempt
        let entry = LoggedRequest(method: method, path: query.isEmpty ? path : path + "?" + query,
                                  credential: credential, attempt: attempt, scenario: scenario(attempt))
        entries.append(entry)
        let ready = waiters.filter { $0.count <= entries.count }
        waiters.removeAll { $0.count <= entries.count }
        for waiter in ready { waiter.continuation.resume() }
        return entry
    }
}
