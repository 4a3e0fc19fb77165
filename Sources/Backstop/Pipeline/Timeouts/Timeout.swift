import Dispatch

/// Runs `operation` for at most `timeout` on `clock`, in a task of its own that the deadline
/// cancels; whichever ends first decides. On the system's clocks the task wakes where
/// `placement` says.
///
/// The caller's own task is never cancelled: only the operation's task is, so the caller
/// goes on to report `.transport` `timedOut`. Cancelling the caller cancels the operation.
/// It returns only once the operation has ended, so nothing the operation started outlives it.
func withTimeout<Value: Sendable>(
    _ timeout: Duration,
    clock: any Clock<Duration>,
    placement: TaskPlacement,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    guard isSystemClock(clock) else { return try await withTimeout(timeout, on: clock, operation) }
    return try await withSystemTimeout(timeout, placement: placement, operation)
}

/// Whether `clock` is one of the system's, whose deadlines ``DeadlineTimers`` keeps.
func isSystemClock(_ clock: any Clock<Duration>) -> Bool {
    // Compared by type, not cast: a cast of an existential costs each call more.
    let clockType = ObjectIdentifier(type(of: clock))
    return clockType == ObjectIdentifier(ContinuousClock.self) || clockType == ObjectIdentifier(SuspendingClock.self)
}

/// The uptime in nanoseconds (`DispatchTime`) `timeout` from now, saturating: a timeout of
/// years is as good as none.
func uptimeDeadline(after timeout: Duration) -> UInt64 {
    let start = DispatchTime.now().uptimeNanoseconds
    let nanoseconds = UInt64(max(timeout.saturatedNanoseconds, 0))
    return UInt64.max - start > nanoseconds ? start + nanoseconds : UInt64.max
}

/// On the system's clocks: the deadline joins ``DeadlineTimers/timeouts`` and is taken out
/// again when the operation ends, and the operation runs in a task that starts on this thread.
///
/// A sleeping timer task beside the operation cost every call a task started on another
/// thread, a wait at the end for that task to wake up to its cancellation and end, and a
/// Dispatch timer that `Task.sleep` leaves pending until its deadline (30 s by default) after
/// the call: tens of thousands of them at a few hundred calls a second.
private func withSystemTimeout<Value: Sendable>(
    _ timeout: Duration,
    placement: TaskPlacement,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let deadline = uptimeDeadline(after: timeout)
    let (result, ticket) = await outcomeInOwnTask(on: placement, operation) { task in
        DeadlineTimers.timeouts.schedule(TimeoutExpiry(task: task), at: deadline)
    }
    let expired = !DeadlineTimers.timeouts.cancel(ticket)
    switch result {
    case .success(let value): return value
    case .failure where expired: throw TimedOut.failure(after: timeout)
    case .failure(let error): throw error
    }
}

/// A timeout's deadline: when it passes, the operation's task is cancelled.
private struct TimeoutExpiry<Value: Sendable>: DeadlineTarget {
    let task: Task<Result<Value, any Error>, Never>

    func deadlinePassed() { task.cancel() }
}

/// On any other clock (a test's): one child runs the operation and a sibling sleeps on `clock`;
/// whichever ends first cancels the other. The group returns only once both have ended.
private func withTimeout<C: Clock<Duration>, Value: Sendable>(
    _ timeout: Duration,
    on clock: C,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    // Taken before the operation starts, so a test clock advanced once the request has left
    // passes the deadline however the two children interleave.
    let deadline = clock.now.advanced(by: timeout)
    return try await withThrowingTaskGroup(of: Value.self) { group in
        group.addTaskStartingHere(operation: operation)
        group.addTask {
            try await clock.sleep(until: deadline, tolerance: nil)
            throw TimedOut.failure(after: timeout)
        }
        defer { group.cancelAll() }
        // The first child to end decides; `next()` is `nil` only for an empty group.
        guard let value = try await group.next() else {
            throw TimedOut.failure(after: timeout)
        }
        return value
    }
}

/// The call or attempt outlived its timeout; kept as the `underlying` of `.transport` `timedOut`.
struct TimedOut: Error, CustomStringConvertible {
    let timeout: Duration
    var description: String { "no response within \(timeout.roundedText)" }

    /// What a call or attempt that outlived `timeout` ends with: `.transport` `timedOut`.
    static func failure(after timeout: Duration) -> TransportFailure {
        TransportFailure(.timedOut, underlying: TimedOut(timeout: timeout))
    }
}
