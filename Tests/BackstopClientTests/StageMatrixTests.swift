import Backstop
import BackstopTestSupport
import BackstopTesting
import BadBackend
import Clocks
import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// Every stage combined with every other, in memory: a first answer of 503, then 200s.
    @Suite("Every stage with every other", .timeLimit(.minutes(1)))
    struct StageMatrixTests {
        enum Stage: String, CaseIterable, Sendable {
            case observation, coalescing, savedAnswers, concurrencyLimit, generalCodes, timeout, retry, circuitBreaker, hedging,
                authentication, attemptTimeout, middlewares
        }

        static var pairs: [(Stage, Stage)] {
            Stage.allCases.enumerated().flatMap { i, first in Stage.allCases.dropFirst(i + 1).map { (first, $0) } }
        }

        @Test(arguments: pairs)
        func twoStagesTogether(first: Stage, second: Stage) async throws {
            let on = Set([first, second])
            let counter = AttemptCounter()
            let logs = InMemoryLogHandler.keepingDebug()
            let store = InMemorySavedAnswerStore()
            let pipeline = quietPipeline {
                if on.contains(.observation) {
                    $0.logging = RequestLogging(logger: Logger(label: "matrix") { _ in logs })
                    $0.metrics = RequestMetrics(factory: TestMetrics())
                }
                if on.contains(.coalescing) { $0.coalescing = RequestCoalescing() }
                if on.contains(.savedAnswers) { $0.savedAnswers = SavedAnswers(store: store) }
                if on.contains(.concurrencyLimit) { $0.concurrencyLimit = ConcurrencyLimit(maximumConcurrentCalls: 1) }
                if on.contains(.generalCodes) { $0.generalCodes = GeneralCodeEvents() }
                // Timeouts on the system's time, far longer than a call: they never fire, but run beside every call.
                if on.contains(.timeout) { $0.timeout = .seconds(30) }
                if on.contains(.retry) { $0.retry = RetryPolicy(exponentialBackoffScale: .zero) }
                if on.contains(.circuitBreaker) { $0.circuitBreaker = CircuitBreaker(clock: TestClock(), logger: nil) }
                if on.contains(.hedging) { $0.hedging = Hedging(delay: .seconds(2)) }
                if on.contains(.authentication) {
                    $0.authentication = .session(AuthSession(authenticator: BearerAuthenticator(), credential: "token"))
                }
                if on.contains(.attemptTimeout) { $0.attemptTimeout = .seconds(10) }
                if on.contains(.middlewares) { $0.middlewares = [counter] }
            }
            let transport = InMemoryStageTests.transport(InMemoryStageTests.status(503), InMemoryStageTests.ok())
            let client = InMemoryStageTests.client(transport, pipeline: pipeline)
            // Retry and hedging both recover from the 503, with one more request; nothing else does:
            // not the saved answers, which have none saved yet.
            let recovers = on.contains(.retry) || on.contains(.hedging)
            do {
                let response = try await client.response(for: InMemoryStageTests.item)
                #expect(recovers)
                #expect(response.payload.name == "ok")
                #expect(response.attempts == 2)
            } catch {
                #expect(!recovers, "\(error)")
                guard case .http(let failure) = error else {
                    Issue.record("expected the 503, got \(error)")
                    return
                }
                #expect(failure.status.code == 503)
            }
            #expect(transport.requests.count == (recovers ? 2 : 1))
            if on.contains(.middlewares) { #expect(counter.attempts == transport.requests.count) }
            if on.contains(.observation) {
                #expect(logs.entries.count == 1)
                #expect(logs.entries.first?.metadata["attempts"] == "\(transport.requests.count)")
            }
            // A second call is answered at once, through every stage again, and its answer saved.
            let second = try await client.response(for: InMemoryStageTests.item)
            #expect(second.payload.name == "ok")
            #expect(second.savedAnswer == nil)
            #expect(store.load.answers == (on.contains(.savedAnswers) ? 1 : 0))
            if on.contains(.authentication) {
                #expect(transport.requests.allSatisfy { $0.headerFields[.authorization] == "Bearer token" })
            }
        }
    }
}
