import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
@_spi(Generated) import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// Hedging inside a generated client's `next`, which must not outlive the middleware's call;
    /// CI runs this suite under ThreadSanitizer.
    @Suite("Hedging through a generated client", .timeLimit(.minutes(2)))
    struct GeneratedClientHedgingConcurrencyTests {
        /// Each call's first request waits on the server's clock until the call is over; its hedge,
        /// sent when the test clock passes the delay, answers at once and wins. The losing request
        /// is still inside the generated client's `next` when the race is decided: the call must
        /// end it and wait for it before returning (it crashed within 40 calls when it did not:
        /// "closure argument was escaped in withoutActuallyEscaping block").
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aLosingHedgeNeverOutlivesTheGeneratedClientsNext(transport: TransportKind) async throws {
            let fixture = HedgingFixture(delay: .milliseconds(50))
            try await fixture.withBackend { backend, url in
                // Every call sends its hedge: the default budget would stop after a dozen.
                let pipeline = fixture.pipeline { $0.retryBudget = .unlimited }
                let client = UniversalClient(
                    serverURL: url, transport: transport.make(),
                    middlewares: [PipelineMiddleware(pipeline, contract: EnvelopeContract.b, generalCodes: GeneralCode.self)])
                for run in 1...40 {
                    // The server counts a path's attempts across runs: each run's first is slow, its hedge is not.
                    let sent = "/scenarios/slow/b/products/1?failures=\(2 * run - 1)"
                    let call = Task { try await GeneratedClientTests.getItem(client, path: sent) }
                    _ = try await backend.requestLog.arrival(where: { $0.path == sent })
                    await fixture.clock.advance(by: .milliseconds(60))
                    let answer = try await call.value
                    #expect(answer.status == 200)
                    #expect(String(decoding: answer.body, as: UTF8.self).contains("\"id\":1"))
                    #expect(await backend.requestLog.entries.count { $0.path == sent } == 2)
                    // The server lets go of the losing request, which the client has already left.
                    await fixture.serverClock.advance(by: .seconds(3600))
                }
            }
        }
    }
}
