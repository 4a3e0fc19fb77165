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

    /// The race the deadline cancels, while the call waits on one.
    private let race = LockedValue<HedgeRace?>(nil)

    /// A deadline `timeout` from now, or `nil` on a clock other than the system's: a test's
    /// clock keeps its timeouts in a task group (`withTimeout`).
    init?(_ timeout: Duration, on clock: any Clock<Duration>) {
        guard isSystemClock(clock) else { return nil }
        self.timeout = timeout
        self.uptime = uptimeDeadline(after: timeout)
    }

    /// Whether the deadline has passed, read from the clock: the timer never fires before it.
    var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds >= uptime }

    /// The time left; zero once the deadline has passed.
    var remaining: Duration {
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= uptime ? .zero : .nanoseconds(Int64(clamping: uptime - now))
    }

    /// The error the call ends with when the deadline passes.
    var failure: TransportFailure { TimedOut.failure(after: timeout) }

    /// Makes `race` the one the deadline cancels; `false` when the deadline has already passed.
    ///
    /// Read under the lock the timer takes too: a race entered before the deadline is the one
    /// the timer finds, and after it none is entered.
    func enter(_ race: HedgeRace) -> Bool {
        self.race.withLock { entered in
            guard !hasPassed else { return false }
            entered = race
            return true
        }
    }

    /// The race has ended: the deadline no longer cancels it.
    func leave() {
        race.withLock { $0 = nil }
    }

    func deadlinePassed() {
        race.withLock { entered in
            defer { entered = nil }
            return entered
        }?.cancel()
    }
}
