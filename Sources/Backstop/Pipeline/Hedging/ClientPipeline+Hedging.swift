import Foundation
import HTTPTypes
import OpenAPIRuntime

extension ClientPipeline {
    /// How one child of a hedged attempt ended.
    private enum Finished: Sendable {
        case answer(Answer)
        case failed(any Error)
        /// The delay passed: the next hedge is due.
        case due
    }

    /// One attempt, with hedges when ``hedging`` is set and the request may be sent twice.
    func hedged(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, call: CallOptions, record: CallRecord, send: @escaping Send
    ) async throws -> Answer {
        let policy = call.retry ?? retry
        // Idempotent by the endpoint's word, else by the retry rules' methods; whether retries are on does not matter.
        guard let hedging, hedging.maximumHedges > 0, call.isIdempotent ?? policy.retryableMethods.contains(request.method)
        else {
            return try await authenticated(request, body: body, baseURL: baseURL, call: call, record: record, send: send)
        }
        let pipeline = self
        let attempt: @Sendable () async -> Finished = {
            do {
                return .answer(
                    try await pipeline.authenticated(request, body: body, baseURL: baseURL, call: call, record: record, send: send))
            } catch {
                return .failed(error)
            }
        }
        // Deadlines are taken now, before any child starts, so a test clock advanced once the
        // request has left passes them however the children interleave.
        let timer = Self.timers(every: hedging.delay(for: call.operationID), on: clock)
        // Only a percentile needs the latencies; a fixed delay does not pay for reading the clock.
        let elapsed: (@Sendable () -> Duration)? =
            if case .percentile = hedging.delay { Self.stopwatch(on: clock) } else { nil }

        return try await withThrowingTaskGroup(of: Finished.self) { group in
            defer { group.cancelAll() }
            #if compiler(>=6.2)
                // The first attempt starts on this thread, as a call without hedging does.
                if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                    group.addImmediateTask(operation: attempt)
                } else {
                    group.addTask(operation: attempt)
                }
            #else
                group.addTask(operation: attempt)
            #endif
            group.addTask(operation: timer(1))
            var (hedges, running) = (0, 1)
            var firstFailure: (any Error)?
            while let finished = try await group.next() {
                switch finished {
                case .answer(let answer):
                    if let elapsed { hedging.latencies.record(elapsed(), for: call.operationID) }
                    return answer
                case .due:
                    guard !Task.isCancelled else { throw firstFailure ?? CancellationError() }
                    guard hedges < hedging.maximumHedges, retryBudget.withdraw() else { continue }
                    hedges += 1
                    running += 1
                    record.recordRetry(reason: "hedge")
                    group.addTask(operation: attempt)
                    if hedges < hedging.maximumHedges { group.addTask(operation: timer(hedges + 1)) }
                case .failed(let error):
                    running -= 1
                    firstFailure = firstFailure ?? error
                    // Every request sent has failed without a response: hedging later would not help.
                    if running == 0 { throw error }
                }
            }
            throw firstFailure ?? CancellationError()
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

    /// The timer of the `n`th hedge: it ends `n` delays after now, on `clock`.
    private static func timers(every delay: Duration, on clock: any Clock<Duration>) -> @Sendable (Int) -> @Sendable () async -> Finished {
        timers(every: delay, onClock: clock)
    }

    private static func timers<C: Clock<Duration>>(every delay: Duration, onClock clock: C)
        -> @Sendable (Int) -> @Sendable () async -> Finished
    {
        let start = clock.now
        return { n in
            let deadline = start.advanced(by: delay * n)
            return {
                try? await clock.sleep(until: deadline, tolerance: nil)
                return .due
            }
        }
    }
}
