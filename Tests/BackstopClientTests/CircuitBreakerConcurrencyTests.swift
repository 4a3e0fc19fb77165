import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import Testing

extension BackstopClient {
    /// The breaker shared by many calls at once; CI runs this suite under ThreadSanitizer.
    @Suite("Circuit breaker, concurrently", .timeLimit(.minutes(1)))
    struct CircuitBreakerConcurrencyTests {
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func manyCallsInAnOutageAndOneProbeWhileTheOthersFailAtOnce(transport: TransportKind) async throws {
            let serverClock = TestClock()
            try await withBackend(clock: serverClock) { backend, url in
                let clock = TestClock()
                let breaker = CircuitBreakerTests.breaker(clock)
                let client = CircuitBreakerTests.client(url, transport, breaker)
                let outage = RetryTests.statusEndpoint(code: 503, failures: .max)
                for _ in 0..<4 { _ = await failure(of: client, outage) }
                // Open: 200 calls at once all fail on the device.
                let refusedInOutage = await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<200 { group.addTask { CircuitBreakerTests.circuitOpen(await failure(of: client, outage)) != nil } }
                    return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
                }
                #expect(refusedInOutage == 200)
                #expect(await backend.hits(RetryTests.statusPath(503)) == 4)

                // After the break, one probe goes out (a slow answer, held on the server's clock);
                // every other call fails at once meanwhile.
                await clock.advance(by: .seconds(15))
                let slow = Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1")
                let probe = Task { try await client.send(slow) }
                // The probe's own arrival: the outage's requests are in the log already.
                _ = try await backend.requestLog.arrival(where: { $0.path == "/scenarios/slow/b/products/1" })
                let refused = await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<50 {
                        group.addTask { CircuitBreakerTests.circuitOpen(await failure(of: client, slow)) != nil }
                    }
                    return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
                }
                #expect(refused == 50)
                await serverClock.advance(by: .seconds(3600))
                #expect(try await probe.value == .one)
                #expect(breaker.state(of: "127.0.0.1:\(url.port ?? 0)") == .closed)
                #expect(await backend.hits("/scenarios/slow/b/products/1") == 1)
            }
        }
    }
}
