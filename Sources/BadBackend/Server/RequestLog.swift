/// Every request BadBackend has received for a resource or an auth endpoint, in arrival order,
/// for tests to read; `GET /scenarios` and paths it does not serve are left out.
public actor RequestLog {
    /// The requests so far.
    public private(set) var entries: [LoggedRequest] = []
    private var attempts: [String: Int] = [:]
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// An empty log; each ``BadBackend`` makes its own.
    public init() {}

    /// The entries once there are at least `count`; returns at once if there already are.
    ///
    /// Lets a test wait for a request to reach the server (a slow answer, say) without
    /// sleeping. Wait only for requests the test has sent: the wait has no timeout of its own.
    public func entries(atLeast count: Int) async -> [LoggedRequest] {
        if entries.count < count {
            await withCheckedContinuation { waiters.append((count, $0)) }
        }
        return entries
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
