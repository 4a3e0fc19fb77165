import Foundation

/// The requests BadBackend has received for a resource or an auth endpoint, in arrival order,
/// for tests to read; `GET /scenarios` and paths it does not serve are left out.
///
/// Its memory is bounded however long the server runs and whatever clients send:
/// - it keeps the last ``maximumEntries`` requests and counts the older ones it forgot in
///   ``droppedEntries``; a wait (``entries(where:atLeast:within:)``, ``arrival(where:within:)``)
///   sees only the requests kept;
/// - it keeps the first ``maximumBodyBytes`` of each body (``LoggedRequest/bodyByteCount``
///   says how long it was);
/// - it counts attempts for at most ``maximumPaths`` methods and paths: past that, the one
///   first seen longest ago is forgotten, and its next request is attempt 1 again.
public actor RequestLog {
    /// The requests kept, oldest first: the last ``maximumEntries``.
    public var entries: [LoggedRequest] { Array(window.elements) }
    private var window: SlidingWindow<LoggedRequest>
    /// How many requests were logged and then forgotten to keep only the last ``maximumEntries``.
    public private(set) var droppedEntries = 0
    /// The most requests kept.
    public nonisolated let maximumEntries: Int
    /// The most bytes of each request's body kept.
    public nonisolated let maximumBodyBytes: Int
    /// The most methods and paths whose attempts are counted.
    public nonisolated let maximumPaths: Int
    private var attempts: [String: Int] = [:]
    /// The methods and paths in `attempts`, first seen first: the order they are forgotten in.
    private var pathOrder: SlidingWindow<String>
    private var waiters: [(id: Int, isReady: @Sendable ([LoggedRequest]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    private var lastWaiter = 0

    /// An empty log; each ``BadBackend`` makes its own, with the limits of its ``BadBackend/Configuration``.
    ///
    /// - Parameters:
    ///   - maximumEntries: The most requests kept; 1,000 unless given.
    ///   - maximumBodyBytes: The most bytes of each body kept; 64 KiB unless given.
    ///   - maximumPaths: The most methods and paths whose attempts are counted; 10,000 unless given.
    public init(maximumEntries: Int = 1_000, maximumBodyBytes: Int = 64 << 10, maximumPaths: Int = 10_000) {
        self.maximumEntries = max(maximumEntries, 1)
        self.maximumBodyBytes = max(maximumBodyBytes, 0)
        self.maximumPaths = max(maximumPaths, 1)
        window = SlidingWindow(capacity: maximumEntries)
        pathOrder = SlidingWindow(capacity: maximumPaths)
    }

    /// The entries once there are at least `count`; returns at once if there already are.
    ///
    /// Lets a test wait for requests to reach the server (a slow answer, say) without
    /// sleeping. Bounded as ``arrival(where:within:)`` is: after `timeout` on the continuous
    /// clock, or when the waiting task is cancelled, it throws ``NotArrived`` with the log so far.
    ///
    /// With `matches`, only the entries it matches count, and only they are returned.
    public func entries(
        where matches: @escaping @Sendable (LoggedRequest) -> Bool = { _ in true },
        atLeast count: Int,
        within timeout: Duration = .seconds(30)
    ) async throws(NotArrived) -> [LoggedRequest] {
        guard await holds(within: timeout, { $0.count(where: matches) >= count }) else {
            throw notArrived("fewer than \(count) request\(count == 1 ? "" : "s")", within: timeout)
        }
        return entries.filter(matches)
    }

    /// The first request that `matches` (any request by default), once it has arrived;
    /// returns at once if it already has.
    ///
    /// Lets a test know that a request has reached the server, to cancel it in flight or to
    /// advance a clock, without sleeping. The wait is bounded so that a request that never
    /// comes fails the test with the log so far rather than holding it to its time limit:
    /// after `timeout` on the continuous clock (the server's clock may be a test clock
    /// nobody advances), or when the waiting task is cancelled, it throws ``NotArrived``.
    public func arrival(
        where matches: @escaping @Sendable (LoggedRequest) -> Bool = { _ in true },
        within timeout: Duration = .seconds(30)
    ) async throws(NotArrived) -> LoggedRequest {
        guard await holds(within: timeout, { $0.contains(where: matches) }), let entry = entries.first(where: matches) else {
            throw notArrived("no such request", within: timeout)
        }
        return entry
    }

    /// Whether `isReady` holds for the entries, at once or before `timeout` passes, unless the
    /// task is cancelled first. It is checked again once it held, on the entries then kept.
    private func holds(within timeout: Duration, _ isReady: @escaping @Sendable ([LoggedRequest]) -> Bool) async -> Bool {
        if isReady(entries) { return true }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.wait(until: isReady)
                return await isReady(self.entries)
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    private func notArrived(_ what: String, within timeout: Duration) -> NotArrived {
        let why = Task.isCancelled ? "the wait was cancelled" : "none arrived within \(timeout)"
        return NotArrived(description: "\(what): \(why); the log has \(entries.count): \(entries.map(\.description))")
    }

    /// No request that a test waited for arrived in time.
    public struct NotArrived: Error, CustomStringConvertible {
        /// Why, with the requests that did arrive.
        public let description: String
    }

    /// Returns once `isReady` holds for the entries, or the task is cancelled.
    private func wait(until isReady: @escaping @Sendable ([LoggedRequest]) -> Bool) async {
        guard !isReady(entries) else { return }
        lastWaiter += 1
        let id = lastWaiter
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { continuation.resume() } else { waiters.append((id, isReady, continuation)) }
            }
        } onCancel: {
            Task { await self.release(id) }
        }
    }

    private func release(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume()
    }

    /// When the first request with each method and path (query left out) arrived, on the server's
    /// clock; the same keys as `attempts`.
    private var firstArrivals: [String: Duration] = [:]

    /// When the first request with `method` and `path` arrived, on the server's clock.
    func firstArrival(method: String, path: String) -> Duration? { firstArrivals[method + " " + path] }

    /// Records a request: its attempt number is counted here, and `scenario` decides, from
    /// that number, what the request gets. Returns the entry with the whole body, for the
    /// answer (the echo sends it back); the log keeps the first ``maximumBodyBytes``.
    func record(
        method: String, path: String, query: String, credential: String?, body: Data?, at now: Duration,
        scenario: @Sendable (_ attempt: Int) -> Scenario?
    ) -> LoggedRequest {
        record(method: method, path: path, query: query, credential: credential, body: body, at: now) { attempt in
            let chosen = scenario(attempt)
            return (chosen, chosen?.name)
        }
    }

    /// Records a request whose scenario may be one only a served document has, so is logged by name too.
    func record(
        method: String, path: String, query: String, credential: String?, body: Data?, at now: Duration,
        named scenario: @Sendable (_ attempt: Int) -> (scenario: Scenario?, name: String?)
    ) -> LoggedRequest {
        let key = method + " " + path
        let attempt = (attempts[key] ?? 0) + 1
        if attempts[key] == nil {
            firstArrivals[key] = now
            if let forgotten = pathOrder.append(key) {
                attempts[forgotten] = nil
                firstArrivals[forgotten] = nil
            }
        }
        attempts[key] = attempt
        let chosen = scenario(attempt)
        let entry = LoggedRequest(
            method: method, path: query.isEmpty ? path : path + "?" + query,
            credential: credential, attempt: attempt, scenario: chosen.scenario, scenarioName: chosen.name, body: body)
        var kept = entry
        if let body, body.count > maximumBodyBytes { kept.body = Data(body.prefix(maximumBodyBytes)) }
        if window.append(kept) != nil { droppedEntries += 1 }
        // Only a waiting test needs the entries as an array: a server logging requests never copies them.
        guard !waiters.isEmpty else { return entry }
        let current = entries
        let ready = waiters.filter { $0.isReady(current) }
        waiters.removeAll { $0.isReady(current) }
        for waiter in ready { waiter.continuation.resume() }
        return entry
    }
}
