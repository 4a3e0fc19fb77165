import Foundation
import HTTPTypes
import OpenAPIRuntime

extension CallRunner {
    /// Whether `call` may be sent twice: idempotent by the endpoint's word, else by the retry
    /// rules' methods; whether retries are on does not matter.
    func isHedgeable(_ call: CallContext) -> Bool {
        // Read in place: a copy of the rules retains each of their sets.
        call.options.isIdempotent
            ?? call.options.retry?.retryableMethods.contains(call.request.method)
            ?? pipeline.retry.retryableMethods.contains(call.request.method)
    }

    /// Whether hedging runs `call`: hedging is on, may send a hedge, and `call` may be sent twice.
    func isHedged(_ call: CallContext) -> Bool {
        guard (pipeline.hedging?.maximumHedges ?? 0) > 0 else { return false }
        return isHedgeable(call)
    }

    /// One attempt and its hedges, each through ``authenticate(_:)``, racing by the rules of
    /// ``Hedging``: the first answer the retry rules would not retry wins; a failure (an error,
    /// or an answer they would retry) sends the next hedge at once, and when every request
    /// failed, the first failure to end is the attempt's.
    func hedged(_ call: CallContext, by hedging: Hedging) async throws -> Answer {
        let policy = call.options.retry ?? pipeline.retry
        let race = HedgeRace()
        // The call's total timeout cancels this race when it passes (see `CallDeadline`).
        if let deadline = call.deadline {
            guard deadline.enter(.race(race)) else { throw deadline.failure }
        }
        defer { call.deadline?.leave() }
        let attempt: @Sendable () async -> Void = { [self] in
            // Not the call's child, so a call cancelled before this starts must be heard here,
            // and a hedge cancelled before it ran sends nothing.
            guard !race.isCancelled, !Task.isCancelled else {
                race.deliver(.failed(CancellationError()))
                return
            }
            do {
                race.deliver(.answer(try await authenticate(call)))
            } catch {
                race.deliver(.failed(error))
            }
        }
        let deadlines = HedgeDeadlines(every: hedging.delay(for: call.options.operationID), on: pipeline.clock, using: hedging.timers)
        // Only a percentile needs the latencies; a fixed delay does not pay for reading the clock.
        let elapsed: (@Sendable () -> Duration)? =
            if case .percentile = hedging.delay { Self.stopwatch(on: pipeline.clock) } else { nil }
        // A borrowed send must not be used once the call returns: its attempts are awaited.
        var attempts: [Task<Void, Never>] = []

        // The attempts are not children of the call, so its cancellation reaches them through the race (see `HedgeRace`).
        let outcome: Result<Answer, any Error> = await withTaskCancellationHandler {
            // The first attempt starts on this thread, as a call without hedging does.
            let first = Task.startingHere(on: placement, operation: attempt)
            race.add(.task(first))
            if call.sendIsBorrowed { attempts.append(first) }
            deadlines.start(1, in: race)
            var (hedges, timers, running) = (0, 1, 1)
            var firstFailure: Result<Answer, any Error>?
            /// Sends the next hedge, if one may go: within ``Hedging/maximumHedges`` and the budget.
            func sendHedge() -> Bool {
                guard !Task.isCancelled, !race.isCancelled, hedges < hedging.maximumHedges, pipeline.retryBudget.withdraw() else {
                    return false
                }
                hedges += 1
                running += 1
                call.record.recordRetry(reason: "hedge")
                let hedge = Task.enqueued(on: placement, operation: attempt)
                race.add(.task(hedge))
                if call.sendIsBorrowed { attempts.append(hedge) }
                if timers <= hedges, hedges < hedging.maximumHedges {
                    timers = hedges + 1
                    deadlines.start(timers, in: race)
                }
                return true
            }
            while true {
                let failure: Result<Answer, any Error>
                let sendsNext: Bool
                switch await race.next() {
                case .answer(let answer):
                    guard Self.failure(of: answer, policy: policy) != nil else {
                        if let elapsed { hedging.latencies.record(elapsed(), for: call.options.operationID) }
                        return .success(answer)
                    }
                    (failure, sendsNext) = (.success(answer), true)
                case .failed(let error):
                    (failure, sendsNext) = (.failure(error), !Task.isCancelled && Self.failure(of: error).map(policy.isRetryable) == true)
                case .due:
                    guard !Task.isCancelled, !race.isCancelled else { return firstFailure ?? .failure(CancellationError()) }
                    _ = sendHedge()
                    continue
                }
                running -= 1
                firstFailure = firstFailure ?? failure
                // A failure the retry rules would retry sends the next hedge at once, as Polly does.
                if sendsNext, sendHedge() { continue }
                // Every request sent has failed: the first to fail is the attempt's outcome.
                if running == 0 { return firstFailure ?? failure }
            }
        } onCancel: {
            race.cancel()
        }
        race.end()
        for attempt in attempts { await attempt.value }
        // Consumed: `get()` would copy the answer.
        switch consume outcome {
        case .success(let answer): return answer
        case .failure(let error): throw error
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
}
