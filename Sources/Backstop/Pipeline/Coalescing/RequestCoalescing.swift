import Foundation
import HTTPTypes

/// The coalescing stage of a ``ClientPipeline``: identical GETs in flight at once share one
/// exchange, so ten screens asking for the same resource send one request.
///
/// Rules a test can check:
/// - Calls with the same method (GET), absolute URL (scheme, host, port, base path, path and
///   query), header fields and credential (the same ``AuthSession``, and the same sign-in and
///   refresh of it), made while the first is in flight, wait for its answer instead of sending
///   their own; each decodes its own payload type from it. Calls to two origins, or for two
///   sessions, never share, even through one instance. The same holds for
///   ``APIClient`` and, through ``PipelineMiddleware``, for a generated client.
/// - The exchange runs in the task of the caller that sent it, as an uncoalesced call would:
///   a call alone pays for no task of its own.
/// - A waiting call whose task is cancelled ends at once as `cancelled`; the exchange goes on
///   for the others.
/// - When the caller that sent the request is cancelled, its request is cancelled with it and
///   the longest-waiting caller sends it again, so the others still get an answer.
/// - A call that starts after the answer came sends a request of its own: nothing is cached.
/// - Only the sending caller's log line and metrics count attempts; the others made none.
///
/// Off unless set: share one instance between the clients whose calls may coincide.
public final class RequestCoalescing: Sendable {
    private let flights = LockedValue(Flights())

    /// The flights in the air and the numbers their waiting callers go by.
    private struct Flights: @unchecked Sendable {
        var byKey: [Key: Flight] = [:]
        var lastCaller: UInt64 = 0
    }

    /// Identical calls share a flight: the same method, absolute URL (scheme, host, port, base
    /// path, path and query), header fields, and credential.
    ///
    /// Hashed once when made: a flight is looked up, added and removed by its key, and hashing
    /// every header field each time cost a call as much as the rest of the stage.
    ///
    /// The header fields are hashed here rather than by `HTTPFields`' own hash, which groups
    /// them by name in a dictionary and hashes each value byte by byte: most of what a call
    /// alone paid for coalescing. Their hashes are added up, so that fields in another order,
    /// which `HTTPFields` may find equal, hash alike.
    struct Key: Hashable {
        let method: HTTPRequest.Method
        /// The base URL as written, then the path relative to it: two clients of one instance
        /// on two origins never share.
        let baseURL: String
        let path: String
        let headerFields: HTTPFields
        /// Whose credential the call carries; `nil` when it carries none.
        let credential: Credential?
        private let hash: Int

        init(method: HTTPRequest.Method, baseURL: URL, path: String, headerFields: HTTPFields, credential: Credential?) {
            self.method = method
            self.baseURL = baseURL.absoluteString
            self.path = path
            self.headerFields = headerFields
            self.credential = credential
            var hasher = Hasher()
            hasher.combine(method)
            hasher.combine(self.baseURL)
            hasher.combine(path)
            var fields = 0
            for field in headerFields {
                var fieldHasher = Hasher()
                fieldHasher.combine(field.name.canonicalName)
                field.withUnsafeBytesOfValue { fieldHasher.combine(bytes: UnsafeRawBufferPointer($0)) }
                fields &+= fieldHasher.finalize()
            }
            hasher.combine(fields)
            hasher.combine(headerFields.count)
            hasher.combine(credential)
            hash = hasher.finalize()
        }

        /// The key of `call`'s request as the caller made it, carrying `credential`.
        init(_ call: CallContext, credential: Credential?) {
            self.init(
                method: call.request.method, baseURL: call.baseURL, path: call.request.path ?? "",
                headerFields: call.request.headerFields, credential: credential)
        }

        static func == (a: Key, b: Key) -> Bool {
            a.hash == b.hash && a.method == b.method && a.path == b.path && a.credential == b.credential
                && a.baseURL == b.baseURL && a.headerFields == b.headerFields
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// Whose credential a call carries: its session, and the generation of the session's
    /// credential (one more at each sign-in and refresh), so calls for two users, or for one
    /// session across a sign-out and sign-in, never share an answer.
    struct Credential: Hashable, Sendable {
        let session: ObjectIdentifier
        let generation: Int
    }

    /// One shared exchange and the callers waiting for it; guarded by the `flights` lock.
    private final class Flight: @unchecked Sendable {
        var waiters: [UInt64: CheckedContinuation<Turn, any Error>] = [:]
        var leftEarly: Set<UInt64> = []
        var result: Result<Answer, any Error>?
    }

    /// What a waiting caller is woken for.
    private enum Turn: Sendable {
        /// The exchange ended.
        case answered(Result<Answer, any Error>)
        /// The caller that ran the exchange left: this one sends it now.
        case lead
    }

    /// A stage that coalesces identical GETs.
    public init() {}

    /// How many shared exchanges are in flight now, and how many calls wait for them.
    public var load: (exchanges: Int, waitingCalls: Int) {
        flights.withLock { flights in (flights.byKey.count, flights.byKey.values.reduce(0) { $0 + $1.waiters.count }) }
    }

    /// The answer of the exchange in flight for `key`, or of a new one that `exchange` runs in
    /// this caller's task; when this caller leaves, the longest-waiting caller runs its own.
    func answer(for key: Key, exchange: () async throws -> Answer) async throws -> Answer {
        let (flight, leads, caller) = join(key)
        if !leads, case .answered(let result) = try await wait(for: flight, caller: caller) {
            return try result.get()
        }
        let result: Result<Answer, any Error>
        do { result = .success(try await exchange()) } catch { result = .failure(error) }
        let (heir, waiters): (CheckedContinuation<Turn, any Error>?, [CheckedContinuation<Turn, any Error>]) =
            flights.withLock { flights in
                // Decided under the lock, so a caller that joins now either inherits or starts anew.
                if case .failure = result, Task.isCancelled, let next = flight.waiters.keys.min() {
                    return (flight.waiters.removeValue(forKey: next), [])
                }
                flight.result = result
                // One lookup: comparing keys compares their header fields.
                if let index = flights.byKey.index(forKey: key), flights.byKey.values[index] === flight {
                    flights.byKey.remove(at: index)
                }
                guard !flight.waiters.isEmpty else { return (nil, []) }
                defer { flight.waiters = [:] }
                return (nil, Array(flight.waiters.values))
            }
        if let heir {
            heir.resume(returning: .lead)
        } else {
            for waiter in waiters { waiter.resume(returning: .answered(result)) }
        }
        return try result.get()
    }

    /// The flight for `key`: the one in flight, or a new one this caller starts.
    private func join(_ key: Key) -> (flight: Flight, starts: Bool, caller: UInt64) {
        flights.withLock { flights in
            if let flight = flights.byKey[key] {
                // Numbered in the order they join: the lowest number has waited longest.
                flights.lastCaller += 1
                return (flight, false, flights.lastCaller)
            }
            let flight = Flight()
            flights.byKey[key] = flight
            return (flight, true, 0)
        }
    }

    /// Waits for `flight` to answer or hand its exchange over; throws `CancellationError` as soon
    /// as the task is cancelled.
    private func wait(for flight: Flight, caller: UInt64) async throws -> Turn {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Turn, any Error>) in
                let now: Result<Turn, any Error>? = flights.withLock { _ in
                    if flight.leftEarly.remove(caller) != nil { return .failure(CancellationError()) }
                    if let result = flight.result { return .success(.answered(result)) }
                    flight.waiters[caller] = waiter
                    return nil
                }
                if let now { waiter.resume(with: now) }
            }
        } onCancel: {
            // The exchange goes on for the others until the caller that sent it leaves.
            let waiter: CheckedContinuation<Turn, any Error>? = flights.withLock { _ in
                guard let waiter = flight.waiters.removeValue(forKey: caller) else {
                    if flight.result == nil { flight.leftEarly.insert(caller) }
                    return nil
                }
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
