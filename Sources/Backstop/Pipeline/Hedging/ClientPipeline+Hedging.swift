import Foundation
import HTTPTypes
import OpenAPIRuntime

extension ClientPipeline {
    /// One attempt, with hedges when ``hedging`` is set and the request may be sent twice.
    func hedged(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, call: CallOptions, record: CallRecord, send: @escaping Send
    ) async throws -> Answer {
        let policy = call.retry ?? retry
        // Idempotent by the endpoint's word, else by the retry rules' methods; whether retries are on does not matter.
        guard let hedging, hedging.maximumHedges > 0, call.isIdempotent ?? policy.retryableMethods.contains(request.method)
        else {
            return try await attemptStages.authenticated(request, body: body, baseURL: baseURL, call: call, record: record, send: send)
        }
        let stages = attemptStages
        let race = HedgeRace()
        let attempt: @Sendable () async -> Void = {
            // Not the call's child, so a call cancelled before this starts must be heard here,
            // and a hedge cancelled before it ran sends nothing.
            guard !race.isCancelled, !Task.isCancelled else {
                race.deliver(.failed(CancellationError()))
                return
            }
            do {
                race.deliver(
                    .answer(try await stages.authenticated(request, body: body, baseURL: baseURL, call: call, record: record, send: send))
                )
            } catch {
                race.deliver(.failed(error))
            }
        }
        // Deadlines are taken now, before any attempt or timer starts, so a test clock advanced
        // once the request has left passes them however the tasks interleave.
        let timer = Self.timers(every: hedging.delay(for: call.operationID), on: clock, using: hedging.timers)
        // Only a percentile needs the latencies; a fixed delay does not pay for reading the clock.
        let elapsed: (@Sendable () -> Duration)? =
            if case .percentile = hedging.delay { Self.stopwatch(on: clock) } else { nil }

        // The attempts are not children of the call, so its cancellation reaches them through the race (see `HedgeRace`).
        return try await withTaskCancellationHandler {
            defer { race.end() }
            // The first attempt starts on this thread, as a call without hedging does.
            let first = Task.startingHere(operation: attempt)
            race.add { first.cancel() }
            timer(1, race)
            var (hedges, running) = (0, 1)
            var firstFailure: (any Error)?
            while true {
                switch await race.next() {
                case .answer(let answer):
                    if let elapsed { hedging.latencies.record(elapsed(), for: call.operationID) }
                    return answer
                case .due:
                    guard !Task.isCancelled else { throw firstFailure ?? CancellationError() }
                    guard hedges < hedging.maximumHedges, retryBudget.withdraw() else { continue }
                    hedges += 1
                    running += 1
                    record.recordRetry(reason: "hedge")
                    let hedge = Task(operation: attempt)
                    race.add { hedge.cancel() }
                    if hedges < hedging.maximumHedges { timer(hedges + 1, race) }
                case .failed(let error):
                    running -= 1
                    firstFailure = firstFailure ?? error
                    // Every request sent has failed without a response: hedging later would not help.
                    if running == 0 { throw error }
                }
            }
        } onCancel: {
            race.cancel()
        }
    }

    /// The time since now, on `clock`.
    private static func stopwatch(on clock: any Clock<Duration>) -> @Sendable () -> Duration {
        stopwatch(onClock: clock)
    }

    private static func stopwatch<C: Clock<Duration>>(onClock clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    /// Starts the timer of the `n`th hedge of `race`: it delivers ``HedgeRace/Finished/due`` `n`
    /// delays after now, on `clock`, unless the race ends first.
    ///
    /// On the system's clocks the deadline joins `timers`, one Dispatch timer for every call of
    /// the ``Hedging``, and the race's end takes it out again. On any other clock (a test's) it
    /// is a task sleeping on that clock, cancelled with the race.
    private static func timers(
        every delay: Duration, on clock: any Clock<Duration>, using timers: HedgeTimers
    ) -> @Sendable (Int, HedgeRace) -> Void {
        // Compared by type, not cast: a cast of an existential costs each call more.
        let clockType = ObjectIdentifier(type(of: clock))
        if clockType == ObjectIdentifier(ContinuousClock.self) || clockType == ObjectIdentifier(SuspendingClock.self) {
            let start = DispatchTime.now().uptimeNanoseconds
            let (seconds, attoseconds) = delay.components
            // Saturating: a delay of years is as good as never.
            let nanoseconds = seconds >= Int64.max / 1_000_000_000 ? Int64.max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
            return { n, race in
                let (delay, overflow) = nanoseconds.multipliedReportingOverflow(by: Int64(n))
                guard !overflow, delay >= 0, UInt64(delay) < UInt64.max - start else { return }
                let ticket = timers.schedule(race, at: start + UInt64(delay))
                race.add { timers.cancel(ticket) }
            }
        }
        return Self.timers(every: delay, onClock: clock)
    }

    private static func timers<C: Clock<Duration>>(every delay: Duration, onClock clock: C) -> @Sendable (Int, HedgeRace) -> Void {
        let start = clock.now
        return { n, race in
            let deadline = start.advanced(by: delay * n)
            let timer = Task {
                try? await clock.sleep(until: deadline, tolerance: nil)
                guard !Task.isCancelled else { return }
                race.deliver(.due)
            }
            race.add { timer.cancel() }
        }
    }
}
