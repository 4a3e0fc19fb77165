import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import Testing

extension BackstopClient {
    /// Timeouts, retries and a refresh in the same calls at once; also run under ThreadSanitizer
    /// in CI (the suite's name ends in `ConcurrencyTests`).
    @Suite("Pipeline concurrency", .timeLimit(.minutes(1)))
    struct PipelineConcurrencyTests {
        /// Calls of each kind; fewer under ThreadSanitizer, which slows every memory access.
        static let each = SessionConcurrencyTests.isThreadSanitized ? 20 : 100
        static let slowCalls = 3

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("calls that refresh, retry and time out at once each end once, as they should", arguments: TransportKind.allCases)
        func timeoutsRetriesAndARefreshTogether(transport: TransportKind) async throws {
            let clock = TestClock()
            try await Session.run(
                transport,
                pipeline: {
                    $0.timeout = .seconds(30)
                    $0.retry = .default
                    $0.clock = clock
                    $0.timeoutClock = clock
                    // No backoff wait, so a retry needs no clock to move.
                    $0.random = { 0 }
                }
            ) { session in
                await session.expireToken()
                // Few slow calls: each holds a connection until it times out, and URLSession keeps
                // few per host.
                let slow = Endpoint<Product, NoModuleCodes>(.get, "scenarios/slow/b/products/1", requiresAuthentication: false)
                // The slow calls start first and hold their connections while the others run.
                let slowCalls = Task {
                    await withTaskGroup(of: SessionError?.self) { group in
                        for _ in 0..<Self.slowCalls {
                            group.addTask {
                                do throws(SessionError) {
                                    _ = try await session.client.send(slow)
                                    return nil
                                } catch {
                                    return error
                                }
                            }
                        }
                        return await group.reduce(into: []) { $0.append($1) }
                    }
                }
                let results = await withTaskGroup(of: (String, Result<Account, SessionError>).self) { group in
                    for index in 0..<Self.each {
                        group.addTask { ("plain", await session.account()) }
                        group.addTask {
                            ("flaky", await session.account("scenarios/http-503/b/account", query: ["failures": "1", "n": "\(index)"]))
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                // Every other call has ended and every slow one has reached the server: only they can time out.
                _ = try await session.backend.requestLog.entries(
                    where: { $0.path == "/scenarios/slow/b/products/1" }, atLeast: Self.slowCalls)
                await clock.advance(by: .seconds(31))
                let slowErrors = await slowCalls.value
                #expect(slowErrors.count == Self.slowCalls)
                #expect(slowErrors.allSatisfy { transportReason(of: $0) == .timedOut })
                #expect(results.count == 2 * Self.each)
                for (kind, result) in results {
                    #expect((try? result.get()) == Account(id: 1), "\(kind): \(result)")
                }
                #expect(await session.refreshes() == 1)
                let flaky = await session.backend.requestLog.entries.count { $0.path.hasPrefix("/scenarios/http-503/") }
                // Each flaky path failed once and was retried, except a call that the refresh replayed past its failure.
                #expect(flaky >= 2 * Self.each - 1)
            }
        }

        /// Both transports keep each call's deadline themselves, to the body's last byte:
        /// deadlines from 1 to 100 ms pass before the request goes out, while it waits for its
        /// head, as its body is read, or not at all.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("deadlines passing as a transport answers end each call once, answered or timed out", arguments: TransportKind.allCases)
        func deadlinesRacingTheTransportsAnswers(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.clock = ContinuousClock()
                        $0.timeout = .seconds(30)
                    })
                // The connection made first, so the deadlines race answers rather than a handshake.
                _ = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                let outcomes = await withTaskGroup(of: String.self) { group in
                    for index in 0..<Self.each {
                        group.addTask {
                            let timeout = Duration.milliseconds(index % 100 + 1)
                            do throws(APIError<GeneralCode, StudyGroupCode>) {
                                let item = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1", timeout: timeout))
                                return item == .one ? "answered" : "answered \(item)"
                            } catch {
                                return transportReason(of: error) == .timedOut ? "timed out" : "\(error)"
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                #expect(outcomes.count == Self.each)
                #expect(Set(outcomes).subtracting(["answered", "timed out"]).isEmpty, "\(Set(outcomes))")
            }
        }
    }
}
