import Foundation
import HTTPTypes

/// The coalescing stage of a ``ClientPipeline``: identical GETs in flight at once share one
/// exchange, so ten screens asking for the same resource send one request.
///
/// Rules a test can check:
/// - Calls with the same method (GET), absolute URL (scheme, host, port, base path, path and
///   query), header fields and credential (the same ``AuthSession`` and the same sign-in of it,
///   refreshed or not), made while the first is in flight, wait for its answer instead of sending
///   their own; each decodes its own payload type from it. Calls to two origins, for two
///   sessions, or for one session before and after ``AuthSession/signOut()`` or
///   ``AuthSession/signIn(_:)``, never share, even through one instance. The same holds for
///   ``APIClient`` and, through ``PipelineMiddleware``, for a generated client.
/// - An answer is shared only if every request that made it carried the credential of the
///   sign-in its calls were keyed with. When the user signs out or in after the calls joined and
///   before an attempt of their request goes out, that attempt is sent for its own caller alone,
///   with the session's credential then, and every call waiting for it sends its own request at
///   once, as a call made without coalescing would.
/// - The exchange runs in the task of the caller that sent it, as an uncoalesced call would:
///   a call alone pays for no task of its own.
/// - A waiting call whose task is cancelled ends at once as `cancelled`; the exchange goes on
///   for the others.
/// - When the caller that sent the request is cancelled, its request is cancelled with it and
///   the longest-waiting caller whose task is not cancelled sends it again, so the others still
///   get an answer; a caller counts as waiting from the moment it joins, before its task suspends.
///   A caller cancelled by the time it is handed the exchange sends nothing and hands it on.
/// - A call that starts after the answer came sends a request of its own: nothing is cached.
/// - Only the sending caller's log line and metrics count attempts; the others made none.
///
/// Off unless set: share one instance between the clients whose calls may coincide. It is a
/// reference: every copy of a ``ClientPipeline`` holding it shares its flights.
public final class RequestCoalescing: Sendable {
    private let flights = LockedValue(Flights())

    /// The flights in the air.
    private struct Flights: @unchecked Sendable {
        var byKey: [Key: Flight] = [:]
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

    /// Whose credential a call carries: its session, and the session's sign-in (one more at each
    /// sign-in and sign-out, not at a refresh), so calls for two users, or for one session across
    /// a sign-out and sign-in, never share an answer.
    struct Credential: Hashable, Sendable {
        let session: ObjectIdentifier
        let signIn: Int
    }

    /// The flight a caller sends for, as the stages below coalescing see it.
    ///
    /// A class: a call's context carries it through every stage, and an optional struct holding
    /// a key's header fields was copied there through the generic optional's witnesses.
    final class Sending: Sendable {
        fileprivate let coalescing: RequestCoalescing
        fileprivate let key: Key
        fileprivate let flight: Flight

        fileprivate init(coalescing: RequestCoalescing, key: Key, flight: Flight) {
            self.coalescing = coalescing
            self.key = key
            self.flight = flight
        }

        /// An attempt of the flight's request goes out carrying `credential`: when that is not
        /// the credential the flight was keyed with, the flight is closed, and its waiting calls
        /// each send their own request.
        func sends(with credential: Credential) {
            guard credential != key.credential else { return }
            coalescing.close(flight, key: key)
        }
    }

    /// One shared exchange and the callers waiting for it; guarded by the `flights` lock.
    ///
    /// A caller is a waiter from the moment it joins, under the same lock: the caller that sent
    /// the exchange, when it leaves, can hand it to one that joined but has not suspended yet.
    fileprivate final class Flight: @unchecked Sendable {
        var waiters = WaiterQueue<Turn>()
    }

    /// What a waiting caller is woken for.
    fileprivate enum Turn: Sendable {
        /// The exchange ended.
        case answered(Result<Answer, any Error>)
        /// The caller that ran the exchange left: this one sends it now.
        case lead
        /// The flight's request goes out with another sign-in's credential than the flight's
        /// key: this caller sends its own, unshared.
        case alone
    }

    /// A stage that coalesces identical GETs.
    public init() {}

    /// How many shared exchanges are in flight now, and how many calls wait for them.
    public var load: (exchanges: Int, waitingCalls: Int) {
        flights.withLock { flights in (flights.byKey.count, flights.byKey.values.reduce(0) { $0 + $1.waiters.count }) }
    }

    /// How many places the flights' queues hold, waiting or about to leave: 0 once every call left.
    package var queuedTickets: Int {
        flights.withLock { flights in flights.byKey.values.reduce(0) { $0 + $1.waiters.tickets } }
    }

    /// The answer of the exchange in flight for `key`, or of a new one that `exchange` runs in
    /// this caller's task; when this caller leaves, the longest-waiting caller runs its own.
    ///
    /// `exchange` is given the flight it sends for, or `nil` when it sends for its caller alone.
    func answer(for key: Key, exchange: (Sending?) async throws -> Answer) async throws -> Answer {
        let (flight, ticket) = join(key)
        if let ticket {
            switch try await wait(for: flight, ticket: ticket) {
            case .answered(let result): return try result.get()
            case .alone: return try await exchange(nil)
            case .lead: break
            }
        }
        let result: Result<Answer, any Error>
        if ticket != nil, Task.isCancelled {
            // Handed the exchange as it was cancelled itself: it sends nothing and hands it on.
            result = .failure(CancellationError())
        } else {
            let sending = Sending(coalescing: self, key: key, flight: flight)
            do { result = .success(try await exchange(sending)) } catch { result = .failure(error) }
        }
        let wakes: [WaiterQueue<Turn>.Wake] = flights.withLock { flights in
            // Decided under the lock, so a caller that joins now either inherits or starts anew.
            // The heir is the longest-waiting caller not cancelled, suspended yet or not.
            if case .failure = result, Task.isCancelled {
                let (found, wake) = flight.waiters.resumeFirst(with: .lead)
                if found { return wake.map { [$0] } ?? [] }
            }
            // One lookup: comparing keys compares their header fields.
            if let index = flights.byKey.index(forKey: key), flights.byKey.values[index] === flight {
                flights.byKey.remove(at: index)
            }
            // Most flights have nobody else on board: no turn to make, nobody to wake.
            guard flight.waiters.tickets > 0 else { return [] }
            return flight.waiters.resumeAll(with: .answered(result))
        }
        for wake in wakes { wake.resume() }
        // Consumed: `get()` would copy the answer.
        switch consume result {
        case .success(let answer): return answer
        case .failure(let error): throw error
        }
    }

    /// Closes `flight`: no call joins it any more, and each waiting call sends its own request.
    /// The caller that sends it keeps its answer; closing twice does nothing more.
    private func close(_ flight: Flight, key: Key) {
        let wakes = flights.withLock { flights in
            if let index = flights.byKey.index(forKey: key), flights.byKey.values[index] === flight {
                flights.byKey.remove(at: index)
            }
            return flight.waiters.resumeAll(with: .alone)
        }
        for wake in wakes { wake.resume() }
    }

    /// The flight for `key`: the one in flight, which this caller joins as a waiter, or a new
    /// one this caller starts (no ticket).
    private func join(_ key: Key) -> (flight: Flight, ticket: WaiterQueue<Turn>.Ticket?) {
        flights.withLock { flights in
            if let flight = flights.byKey[key] { return (flight, flight.waiters.enroll()) }
            let flight = Flight()
            flights.byKey[key] = flight
            return (flight, nil)
        }
    }

    /// Waits for `flight` to answer or hand its exchange over; throws `CancellationError` as soon
    /// as the task is cancelled. The exchange goes on for the others until the caller that sent it leaves.
    private func wait(for flight: Flight, ticket: WaiterQueue<Turn>.Ticket) async throws -> Turn {
        try await flights.wait(for: ticket) { _, body in body(&flight.waiters) }
    }
}
