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
        let deadlines = HedgeDeadlines(every: hedging.delay(for: call.operationID), on: clock, using: hedging.timers)
        // Only a percentile needs the latencies; a fixed delay does not pay for reading the clock.
        let elapsed: (@Sendable () -> Duration)? =
            if case .percentile = hedging.delay { Self.stopwatch(on: clock) } else { nil }

        // The attempts are not children of the call, so its cancellation reaches them through the race (see `HedgeRace`).
        return try await withTaskCancellationHandler {
            defer { race.end() }
            // The first attempt starts on this thread, as a call without hedging does.
            let first = Task.startingHere(operation: attempt)
            race.add(.task(first))
            deadlines.start(1, in: race)
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
                    race.add(.task(hedge))
                    if hedges < hedging.maximumHedges { deadlines.start(hedges + 1, in: race) }
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
}
