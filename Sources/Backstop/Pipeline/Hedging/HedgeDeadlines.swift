import Dispatch

/// When the hedges of one call are due: the `n`th delivers ``HedgeRace/Finished/due`` to its
/// race `n` delays after the call began, unless the race ends first.
///
/// A value, not a closure per call: on the system's clocks a call starts its timer without
/// allocating for it.
enum HedgeDeadlines: Sendable {
    /// On the system's clocks: each deadline joins `timers`, one Dispatch timer for every call of
    /// the ``Hedging``, and the race's end takes it out again. Uptime nanoseconds, as `DispatchTime`.
    case system(start: UInt64, delay: Int64, timers: DeadlineTimers)
    /// On any other clock (a test's): a task sleeping on that clock per hedge, cancelled with the race.
    case sleeping(@Sendable (Int, HedgeRace) -> Void)

    /// The deadlines of hedges every `delay` from now, on `clock`.
    ///
    /// Taken when the call begins, before any attempt or timer starts, so a test clock advanced
    /// once the request has left passes them however the tasks interleave.
    init(every delay: Duration, on clock: any Clock<Duration>, using timers: DeadlineTimers) {
        // Compared by type, not cast: a cast of an existential costs each call more.
        let clockType = ObjectIdentifier(type(of: clock))
        guard clockType == ObjectIdentifier(ContinuousClock.self) || clockType == ObjectIdentifier(SuspendingClock.self) else {
            self = .sleeping(Self.sleeping(every: delay, onClock: clock))
            return
        }
        // Saturating: a delay of years is as good as never.
        self = .system(start: DispatchTime.now().uptimeNanoseconds, delay: delay.saturatedNanoseconds, timers: timers)
    }

    /// Starts the timer of the `n`th hedge of `race`.
    func start(_ n: Int, in race: HedgeRace) {
        switch self {
        case .system(let start, let nanoseconds, let timers):
            let (delay, overflow) = nanoseconds.multipliedReportingOverflow(by: Int64(n))
            guard !overflow, delay >= 0, UInt64(delay) < UInt64.max - start else { return }
            race.add(.deadline(timers.schedule(race, at: start + UInt64(delay)), in: timers))
        case .sleeping(let start):
            start(n, race)
        }
    }

    private static func sleeping<C: Clock<Duration>>(every delay: Duration, onClock clock: C) -> @Sendable (Int, HedgeRace) -> Void {
        let start = clock.now
        return { n, race in
            let deadline = start.advanced(by: delay * n)
            let timer = Task {
                try? await clock.sleep(until: deadline, tolerance: nil)
                guard !Task.isCancelled else { return }
                race.deliver(.due)
            }
            race.add(.task(timer))
        }
    }
}
