import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import InMemoryLogging
import Logging
import Testing

extension BackstopClient {
    /// Hedged attempts racing against BadBackend; CI runs this suite under ThreadSanitizer.
    @Suite("Hedging", .timeLimit(.minutes(1)))
    struct HedgingConcurrencyTests {
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aSlowGETIsSentAgainAfterTheDelayAndTheFirstAnswerWins(transport: TransportKind) async throws {
            let serverClock = TestClock()
            try await withBackend(clock: serverClock) { backend, url in
                let clock = TestClock()
                let logs = InMemoryLogHandler()
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.hedging = Hedging(delay: .seconds(2))
                        $0.clock = clock
                        $0.logging = RequestLogging(logger: Logger(label: "hedging") { _ in logs })
                    })
                let path = "/scenarios/slow/b/products/1"
                let call = Task { try await client.send(Endpoint<Item, StudyGroupCode>(.get, String(path.dropFirst()))) }
                _ = try await backend.requestLog.arrival(where: { $0.path == path })
                await clock.advance(by: .seconds(2))
                // The hedge: the same request, a second time, while the first still waits.
                _ = try await backend.requestLog.entries(where: { $0.path == path }, atLeast: 2)
                await serverClock.advance(by: .seconds(3600))
                #expect(try await call.value == .one)
                #expect(await backend.hits(path) == 2)
                let line = try #require(logs.entries.last)
                #expect(line.metadata["attempts"] == "2")
                #expect(line.metadata["retries"] == "hedge")
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aPOSTIsNeverHedgedAndAFastAnswerNeedsNoHedge(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let clock = TestClock()
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.hedging = Hedging(delay: .seconds(2))
                        $0.clock = clock
                    })
                let item = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                #expect(item == .one)
                await clock.advance(by: .seconds(10))
                #expect(await backend.hits("/b/products/1") == 1)
                struct Echoed: Decodable, Sendable { var method: String }
                _ = try? await client.send(Endpoint<Echoed, StudyGroupCode>(.post, "b/echo", body: ["a": 1]))
                await clock.advance(by: .seconds(10))
                #expect(await backend.requestLog.entries.count { $0.method == "POST" } == 1)
            }
        }
    }
}
