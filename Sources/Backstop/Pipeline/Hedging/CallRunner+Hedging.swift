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
    /// ``Hedging`` (see ``HedgeRace``): the first answer the retry rules would not retry wins; a
    /// failure (an error, or an answer they would retry) sends the next hedge at once, and when
    /// every request failed, the first failure to end is the attempt's.
    ///
    /// The first attempt runs in the call's own task when nothing stands between it and a
    /// transport that can end it from outside (``DeadlineKeeping``), as a call without hedging
    /// does; the hedges run in tasks of their own.
    func hedged(_ call: CallContext, by hedging: Hedging) async throws -> Answer {
        // Only a percentile needs the latencies; a fixed delay does not pay for reading the clock.
        let learnsLatency: (@Sendable () -> Void)? =
            if case .percentile = hedging.delay {
                { [elapsed = Self.stopwatch(on: pipeline.clock), operationID = call.options.operationID] in
                    hedging.latencies.record(elapsed(), for: operationID)
                }
            } else { nil }
        let rules = HedgeRace.Rules(
            policy: call.options.retry ?? pipeline.retry, maximumHedges: hedging.maximumHedges, budget: pipeline.retryBudget,
            record: call.record,
            deadlines: HedgeDeadlines(every: hedging.delay(for: call.options.operationID), on: pipeline.clock, using: hedging.timers),
            placement: placement, keepsAttempts: call.sendIsBorrowed, learnsLatency: learnsLatency)
        let race = HedgeRace(rules) { [self] in try await authenticate(call) }
        // The call's total timeout cancels this race when it passes (see `CallDeadline`).
        if let deadline = call.deadline {
            guard deadline.enter(race) else { throw deadline.failure }
        }
        defer { call.deadline?.leave() }

        let outcome: Result<Answer, any Error>
        if let keeper = deadlineKeeper(for: call) {
            // The race, not the transport, keeps the call's deadline.
            let exchange = ExchangeCancellation()
            var first = call
            first.send = send(through: keeper, within: nil, cancelledBy: exchange)
            outcome = await race.run(first: { [self, first] in try await authenticate(first) }, endedBy: exchange)
        } else {
            outcome = await race.run(first: { [self] in try await authenticate(call) }, endedBy: nil)
        }
        // A borrowed send must not be used once the call returns: its attempts are awaited.
        if call.sendIsBorrowed {
            for attempt in race.attempts { await attempt.value }
        }
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
