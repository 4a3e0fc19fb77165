/// Runs `operation` for at most `timeout` on `clock`, in the caller's task group: one child
/// runs the operation and a sibling sleeps; whichever ends first cancels the other.
///
/// The caller's own task is never cancelled: only the operation's child is, so the caller
/// goes on to report `.transport` `timedOut`. Cancelling the caller cancels both children.
/// The group returns only once both have ended, so nothing the operation started outlives it.
func withTimeout<Value: Sendable>(
    _ timeout: Duration,
    clock: any Clock<Duration>,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withTimeout(timeout, on: clock, operation)
}

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
            throw TransportFailure(.timedOut, underlying: TimedOut(timeout: timeout))
        }
        defer { group.cancelAll() }
        // The first child to end decides; `next()` is `nil` only for an empty group.
        guard let value = try await group.next() else {
            throw TransportFailure(.timedOut, underlying: TimedOut(timeout: timeout))
        }
        return value
    }
}

/// The call or attempt outlived its timeout; kept as the `underlying` of `.transport` `timedOut`.
struct TimedOut: Error, CustomStringConvertible {
    let timeout: Duration
    var description: String { "no response within \(timeout.roundedText)" }
}
