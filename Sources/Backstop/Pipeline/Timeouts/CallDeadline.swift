import Dispatch
import Foundation

/// A call's total timeout on the system's clocks, kept by the stages below it rather than by a
/// task of its own.
///
/// Two kinds of call keep it so. A hedged call's race can end every attempt it runs, so the
/// deadline cancels the race it is waiting on. A call on a transport that keeps deadlines itself
/// (``DeadlineKeeping``), with no middleware in front of it, hands the transport the time left
/// for each exchange, body included. Either way retry bounds its waits by it (``remaining``). A
/// timeout task around the attempts cost each call a second task and its hop: about 17k
/// instructions, and 2 to 5 points over a hand-written call on AsyncHTTPClient.
final class CallDeadline: DeadlineTarget {
    /// The timeout the call was given, for the error it ends with.
    let timeout: Duration
    /// When it passes, in uptime nanoseconds (`DispatchTime`).
    let uptime: UInt64

    /// The hedged attempt's race the deadline cancels when it passes, while the call waits on it.
    private let waiting = LockedValue<HedgeRace?>(nil)

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

    /// Makes `race` what the deadline cancels; `false` when the deadline has already passed.
    ///
    /// Read under the lock the timer takes too: what is entered before the deadline is what the
    /// timer finds, and after it nothing is entered.
    func enter(_ race: HedgeRace) -> Bool {
        waiting.withLock { entered in
            guard !hasPassed else { return false }
            entered = race
            return true
        }
    }

    /// The wait has ended: the deadline no longer cancels it.
    func leave() {
        waiting.withLock { $0 = nil }
    }

    func deadlinePassed() {
        let race = waiting.withLock { entered in
            defer { entered = nil }
            return entered
        }
        race?.cancel()
    }
}
