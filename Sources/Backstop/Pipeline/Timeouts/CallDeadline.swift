import Dispatch

/// A hedged call's total timeout on the system's clocks, kept by the stages below it rather than
/// by a task of its own.
///
/// Hedging already runs each attempt in a task that the call's race cancels, so the deadline
/// cancels the race it is waiting on (``enter(_:)``), and retry bounds its waits by it
/// (``remaining``). A timeout task around those attempts cost each call a second task and its
/// hop: about 17k instructions, 1 to 5 points over a hand-written call on AsyncHTTPClient.
final class CallDeadline: DeadlineTarget {
    /// The timeout the call was given, for the error it ends with.
    let timeout: Duration
    /// When it passes, in uptime nanoseconds (`DispatchTime`).
    let uptime: UInt64

    private struct State {
        var hasPassed = false
        var race: HedgeRace?
    }

    private let state = LockedValue(State())

    /// A deadline `timeout` from now, or `nil` on a clock other than the system's: a test's
    /// clock keeps its timeouts in a task group (`withTimeout`).
    init?(_ timeout: Duration, on clock: any Clock<Duration>) {
        guard isSystemClock(clock) else { return nil }
        self.timeout = timeout
        self.uptime = uptimeDeadline(after: timeout)
    }

    /// Whether the deadline has passed: told by the timer, or read from the clock.
    var hasPassed: Bool {
        state.withLock { $0.hasPassed } || DispatchTime.now().uptimeNanoseconds >= uptime
    }

    /// The time left; zero once the deadline has passed.
    var remaining: Duration {
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= uptime ? .zero : .nanoseconds(Int64(clamping: uptime - now))
    }

    /// The error the call ends with when the deadline passes.
    var failure: TransportFailure {
        TransportFailure(.timedOut, underlying: TimedOut(timeout: timeout))
    }

    /// Makes `race` the one the deadline cancels; `false` when the deadline has already passed.
    func enter(_ race: HedgeRace) -> Bool {
        state.withLock { state in
            guard !state.hasPassed, DispatchTime.now().uptimeNanoseconds < uptime else { return false }
            state.race = race
            return true
        }
    }

    /// The race has ended: the deadline no longer cancels it.
    func leave() {
        state.withLock { $0.race = nil }
    }

    func deadlinePassed() {
        let race = state.withLock { state in
            state.hasPassed = true
            defer { state.race = nil }
            return state.race
        }
        race?.cancel()
    }
}
