import Foundation
import HTTPTypes

/// The coalescing stage of a ``ClientPipeline``: identical GETs in flight at once share one
/// exchange, so ten screens asking for the same resource send one request.
///
/// Rules a test can check:
/// - Calls with the same method (GET), path and query, header fields and need for the
///   session's credential, made while the first is in flight, wait for its answer instead of
///   sending their own; each decodes its own payload type from it. The same holds for
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
    private let flights = LockedValue([Key: Flight]())
    private let nextCaller = LockedValue<UInt64>(0)

    /// Identical calls share a flight.
    struct Key: Hashable {
        var method: HTTPRequest.Method
        var path: String
        var headerFields: HTTPFields
        var requiresAuthentication: Bool
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
        flights.withLock { flights in (flights.count, flights.values.reduce(0) { $0 + $1.waiters.count }) }
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
        let heir: CheckedContinuation<Turn, any Error>? = flights.withLock { flights in
            // Decided under the lock, so a caller that joins now either inherits or starts anew.
            if case .failure = result, Task.isCancelled, let next = flight.waiters.keys.min() {
                return flight.waiters.removeValue(forKey: next)
            }
            return nil
        }
        guard let heir else {
            finish(flight, key: key, with: result)
            return try result.get()
        }
        heir.resume(returning: .lead)
        return try result.get()
    }

    /// The flight for `key`: the one in flight, or a new one this caller starts.
    private func join(_ key: Key) -> (flight: Flight, starts: Bool, caller: UInt64) {
        let caller = nextCaller.withLock { next in
            next += 1
            return next
        }
        return flights.withLock { flights in
            if let flight = flights[key] { return (flight, false, caller) }
            let flight = Flight()
            flights[key] = flight
            return (flight, true, caller)
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

    private func finish(_ flight: Flight, key: Key, with result: Result<Answer, any Error>) {
        let waiters: [CheckedContinuation<Turn, any Error>] = flights.withLock { flights in
            flight.result = result
            if flights[key] === flight { flights[key] = nil }
            defer { flight.waiters = [:] }
            return Array(flight.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: .answered(result)) }
    }
}
