import AsyncHTTPClient
import Backstop
import BackstopAsyncHTTPClient
import BackstopTestSupport
import BackstopTesting
import BadBackend
import Clocks
import Foundation
import Testing

extension BackstopClient {
    /// Invalid configuration is a programmer error at construction; large values saturate; the
    /// state that copies of a pipeline share is the state the docs say they share.
    @Suite("Configuration")
    struct ConfigurationTests {
        /// Each invalid value stops the program where it is given (an exit test: a child process).
        @Test func invalidValuesStopTheProgramAtConstruction() async {
            await #expect(processExitsWith: .failure) { _ = CircuitBreaker(failureRatio: 1.5, logger: nil) }
            await #expect(processExitsWith: .failure) { _ = CircuitBreaker(failureRatio: -0.1, logger: nil) }
            await #expect(processExitsWith: .failure) { _ = CircuitBreaker(probes: 0, logger: nil) }
            await #expect(processExitsWith: .failure) { _ = CircuitBreaker(breakDuration: .seconds(-1), logger: nil) }
            await #expect(processExitsWith: .failure) {
                _ = CircuitBreaker(breakDuration: .seconds(60), maximumBreakDuration: .seconds(30), logger: nil)
            }
            await #expect(processExitsWith: .failure) { _ = ConcurrencyLimit(maximumConcurrentCalls: 0) }
            await #expect(processExitsWith: .failure) { _ = ConcurrencyLimit(maximumConcurrentCalls: 4, maximumQueuedCalls: -1) }
            await #expect(processExitsWith: .failure) { _ = Hedging(delay: .milliseconds(-5)) }
            await #expect(processExitsWith: .failure) { _ = Hedging(delay: .seconds(1), maximumHedges: -1) }
            await #expect(processExitsWith: .failure) { _ = Hedging(percentile: 100) }
            await #expect(processExitsWith: .failure) { _ = RetryPolicy(retryLimit: -1) }
            await #expect(processExitsWith: .failure) { _ = RetryPolicy(exponentialBackoffBase: .nan) }
            await #expect(processExitsWith: .failure) { _ = RetryPolicy(exponentialBackoffScale: .seconds(-1)) }
            await #expect(processExitsWith: .failure) { _ = RetryBudget(share: -0.2) }
            await #expect(processExitsWith: .failure) { _ = RetryBudget(reserve: -1) }
        }

        /// With no tracer bootstrapped (this test process bootstraps none), AsyncHTTPClient's
        /// configuration for Backstop holds no tracer, where AsyncHTTPClient's own default holds
        /// the no-op one, whose span each request would still start.
        @Test func theBackstopConfigurationOfAsyncHTTPClientHoldsNoTracerWhenNoneIsBootstrapped() {
            #expect(HTTPClient.Configuration.backstop.tracing.tracer == nil)
            #expect(HTTPClient.Configuration().tracing.tracer != nil)
        }

        @Test func theEdgesOfEachRangeAreValid() {
            #expect(CircuitBreaker(failureRatio: 0, logger: nil).failureRatio == 0)
            #expect(CircuitBreaker(failureRatio: 1, breakDuration: .zero, maximumBreakDuration: .zero, logger: nil).failureRatio == 1)
            #expect(ConcurrencyLimit(maximumConcurrentCalls: 1, maximumQueuedCalls: 0).maximumQueuedCalls == 0)
            #expect(Hedging(delay: .zero, maximumHedges: 0).maximumHedges == 0)
            #expect(Hedging(percentile: 99.9).maximumHedges == 1)
            #expect(RetryPolicy(retryLimit: 0, exponentialBackoffBase: 1).retryLimit == 0)
            #expect(RetryBudget(share: 0, reserve: 0, recentRequests: 0).share == 0)
        }

        /// scale × base^(retry − 1) outgrows any duration: it is compared before it is made, so
        /// the delay saturates at `maximumDelay` instead of trapping.
        @Test func aBackoffThatOutgrowsEveryDurationSaturatesAtTheMaximumDelay() {
            let policy = RetryPolicy(
                retryLimit: 10_000, exponentialBackoffBase: 10, exponentialBackoffScale: .seconds(1), maximumDelay: .seconds(30))
            #expect(policy.delay(beforeRetry: 1, random: 1) == .seconds(1))
            #expect(policy.delay(beforeRetry: 2, random: 1) == .seconds(10))
            #expect(policy.delay(beforeRetry: 3, random: 1) == .seconds(30))
            #expect(policy.delay(beforeRetry: 40, random: 1) == .seconds(30))
            #expect(policy.delay(beforeRetry: 9_999, random: 0.5) == .seconds(15))
            var huge = policy
            huge.maximumDelay = .seconds(Int64.max)
            #expect(huge.delay(beforeRetry: 9_999, random: 1) == .seconds(Int64.max))
            // Nonsense set on the properties afterwards does not trap either.
            var odd = policy
            odd.exponentialBackoffBase = .infinity
            odd.exponentialBackoffScale = .seconds(-3)
            #expect(odd.delay(beforeRetry: 5, random: .nan) == .zero)
            #expect(policy.delay(beforeRetry: 1, retryAfter: .seconds(Int64.max), random: 0) == policy.maximumRetryAfter)
            #expect(policy.delay(beforeRetry: 1, retryAfter: .seconds(-5), random: 0) == .zero)
        }

        /// A timeout too long for AsyncHTTPClient's nanoseconds is as good as none, given to the
        /// transport or left of a call's total timeout: neither traps.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func aTimeoutOfYearsOnAsyncHTTPClientIsAsGoodAsNone() async throws {
            try await withBackend { _, url in
                let client = APIClient<GeneralCode>(
                    baseURL: url, contract: EnvelopeContract.b, decoder: ResilientJSONDecoder(),
                    pipeline: quietPipeline {
                        $0.clock = ContinuousClock()
                        $0.timeout = .seconds(Int64.max)
                    },
                    transport: HTTPClientTransport(timeout: .seconds(Int64.max)))
                let item = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                #expect(item == .one)
            }
        }

        /// The stages that keep state are references: a copy of a pipeline shares them, as
        /// their docs say; a value stage (`Hedging`) shares the latencies it learns.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func copiesOfAPipelineShareItsStagesState() async throws {
            let original = ClientPipeline(
                coalescing: RequestCoalescing(), concurrencyLimit: ConcurrencyLimit(maximumConcurrentCalls: 2),
                generalCodes: GeneralCodeEvents(), circuitBreaker: CircuitBreaker(logger: nil),
                hedging: Hedging(percentile: 50, minimum: .zero, fallback: .seconds(9)))
            let copy = original
            #expect(copy.retryBudget === original.retryBudget)
            #expect(copy.circuitBreaker === original.circuitBreaker)
            #expect(copy.concurrencyLimit === original.concurrencyLimit)
            #expect(copy.coalescing === original.coalescing)

            // Twenty answers of 10 ms through the original teach the copy's hedging too.
            let clock = TestClock()
            var timed = quietPipeline { $0.clock = clock }
            timed.hedging = original.hedging
            timed.middlewares = [HedgingConcurrencyTests.Latency(clock: clock, latencies: Array(repeating: .milliseconds(10), count: 20))]
            let transport = StubTransport()
            transport.stub(.get, "account", .json(#"{"id": 1}"#))
            let client = makeClient(transport, pipeline: timed)
            for _ in 0..<20 { _ = try await client.send(Endpoint<Account, NoModuleCodes>(.get, "account", operationID: "account")) }
            #expect(copy.hedging?.delay(for: "account") == .milliseconds(10))
        }
    }
}
