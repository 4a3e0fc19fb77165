/// One timer per client for the timeouts of all its calls, on the client's clock.
///
/// A call registers its deadline from inside the task that runs its exchange; when the
/// deadline passes first, that task is cancelled, so the transport hears it at once, and
/// ``finish(_:)`` tells the call it timed out. A single sleeping task waits for the earliest
/// deadline, instead of a timer task per call racing each exchange.
protocol CallDeadlines: AnyObject, Sendable {
    /// Watches the current task until ``finish(_:)``; cancels it if `timeout` passes first.
    func start(_ timeout: Duration) -> CallDeadline
    /// Stops watching; answers whether the deadline passed and cancelled the call.
    func finish(_ call: CallDeadline) -> Bool
}

/// A registered call.
struct CallDeadline: Sendable {
    fileprivate let id: UInt64
}

/// Deadlines for `clock`, whatever its instant type.
func makeCallDeadlines(_ clock: any Clock<Duration>) -> any CallDeadlines {
    // The common clock gets code specialized for it; any other is opened once, here.
    if let continuous = clock as? ContinuousClock { return ClockDeadlines(clock: continuous) }
    func open<C: Clock<Duration>>(_ clock: C) -> any CallDeadlines { ClockDeadlines(clock: clock) }
    return open(clock)
}

/// Keeps every deadline as a `Duration` since the clock's instant at creation, so the work each
/// call does (``start(_:)`` and ``finish(_:)``) is not generic over the clock: only reading the
/// clock and sleeping on it are, inside two closures made once.
private final class ClockDeadlines: CallDeadlines {
    private struct Call: Sendable {
        var deadline: Duration
        var task: CancelHandle
    }

    private struct State: Sendable {
        var calls: [UInt64: Call] = [:]
        var nextID: UInt64 = 0
        /// The timer: its generation, the deadline it sleeps until, and its task.
        var timer: (generation: UInt64, until: Duration, task: Task<Void, Never>)?
    }

    private let now: @Sendable () -> Duration
    private let sleep: @Sendable (_ until: Duration) async throws -> Void
    private let state = LockedValue(State())

    init<C: Clock<Duration>>(clock: C) {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }

    deinit { state.withLock { $0.timer?.task.cancel() } }

    func start(_ timeout: Duration) -> CallDeadline {
        let deadline = now() + timeout
        let task = CancelHandle()
        return state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.calls[id] = Call(deadline: deadline, task: task)
            // With one timeout for all calls, later calls have later deadlines: the timer sleeps on.
            if let timer = state.timer, timer.until <= deadline { return CallDeadline(id: id) }
            state.timer?.task.cancel()
            schedule(until: deadline, in: &state)
            return CallDeadline(id: id)
        }
    }

    func finish(_ call: CallDeadline) -> Bool {
        // A call the timer removed is one it cancelled.
        state.withLock { $0.calls.removeValue(forKey: call.id) == nil }
    }

    private func schedule(until deadline: Duration, in state: inout State) {
        let generation = state.nextID
        state.nextID += 1
        let sleep = sleep
        // Detached: the timer outlives the call that started it and needs none of its task-locals.
        let task = Task.detached { [weak self] in
            do { try await sleep(deadline) } catch { return }
            self?.fire(generation)
        }
        state.timer = (generation, deadline, task)
    }

    private func fire(_ generation: UInt64) {
        let current = now()
        state.withLock { state in
            guard state.timer?.generation == generation else { return }
            state.timer = nil
            var earliest: Duration?
            for (id, call) in state.calls {
                if call.deadline <= current {
                    // Under the lock: a registered call's task is still running its exchange.
                    call.task.cancel()
                    state.calls[id] = nil
                } else if earliest.map({ call.deadline < $0 }) ?? true {
                    earliest = call.deadline
                }
            }
            if let earliest { schedule(until: earliest, in: &state) }
        }
    }
}

/// The task that was current when it was made, to cancel it from the timer.
///
/// `UnsafeCurrentTask` may be used only while its task runs. ``ClockDeadlines`` cancels it
/// only while the call is registered, under the same lock the call takes to unregister
/// before its task ends, which is what makes the `@unchecked Sendable` sound.
private struct CancelHandle: @unchecked Sendable {
    private let task: UnsafeCurrentTask?

    init() { task = withUnsafeCurrentTask { $0 } }

    func cancel() { task?.cancel() }
}
