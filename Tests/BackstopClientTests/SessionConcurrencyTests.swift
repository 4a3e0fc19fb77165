import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// A thousand calls through one session at once, bounded in time; also run under
    /// ThreadSanitizer in CI (the suite's name ends in `ConcurrencyTests`).
    @Suite("Session concurrency", .timeLimit(.minutes(1)))
    struct SessionConcurrencyTests {
        /// A thousand; a quarter under ThreadSanitizer, which slows every memory access and
        /// still sees every path the calls share.
        static let calls = isThreadSanitized ? 250 : 1_000

        /// Whether the ThreadSanitizer runtime is linked into this test process.
        static let isThreadSanitized: Bool = {
            #if canImport(Darwin)
                let everywhere = UnsafeMutableRawPointer(bitPattern: -2)
            #else
                let everywhere: UnsafeMutableRawPointer? = nil
            #endif
            return dlsym(everywhere, "__tsan_init") != nil
        }()

        /// Runs `body` with a session behind logging into an in-memory handler and metrics into
        /// a test backend, then checks that no token reached either.
        @available(macOS 14, iOS 17, tvOS 17, *)
        static func observed(
            _ transport: TransportKind, refresh: RefreshBehaviour = .succeeds, knowsExpiry: Bool = false,
            _ body: (Session, TestMetrics) async throws -> Void
        ) async throws {
            let (handler, metrics) = (InMemoryLogHandler.keepingDebug(), TestMetrics())
            try await Session.run(
                transport, refresh: refresh, knowsExpiry: knowsExpiry,
                pipeline: {
                    $0.logging = RequestLogging(logger: Logger(label: "stress") { _ in handler })
                    $0.metrics = RequestMetrics(factory: metrics)
                }
            ) { try await body($0, metrics) }
            let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
            let counters = metrics.counters.map { "\($0.label) \($0.dimensions) \($0.values)" }
            let timers = metrics.timers.map { "\($0.label) \($0.dimensions)" }
            let seen = (lines + counters + timers).joined(separator: "\n")
            #expect(!lines.isEmpty)
            for token in ["access-1", "access-2", "access-3", "refresh-1", "refresh-2", "refresh-3"] {
                #expect(!seen.contains(token), "\(token) reached a log handler or the metrics")
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        static func thousandCalls(
            _ session: Session, midway: (@Sendable () async -> Void)? = nil
        ) async -> [Result<Account, SessionError>] {
            await withTaskGroup(of: Result<Account, SessionError>.self) { group in
                for _ in 0..<calls { group.addTask { await session.account() } }
                if let midway {
                    // The sign-in, then half the calls.
                    do {
                        _ = try await session.backend.requestLog.entries(atLeast: 1 + calls / 2)
                    } catch {
                        Issue.record(error)
                    }
                    await midway()
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(
            "1,000 calls while the token expires mid-way: one refresh, every call answered once, no token in logs or metrics",
            arguments: TransportKind.allCases)
        func aThousandCallsShareOneRefresh(transport: TransportKind) async throws {
            try await Self.observed(transport, knowsExpiry: true) { session, metrics in
                let start = ContinuousClock.now
                let results = await Self.thousandCalls(session) { await session.expireToken() }
                print("\(Self.calls) calls with a refresh mid-way (\(transport.rawValue)) in \(ContinuousClock.now - start)")
                #expect(results.count == Self.calls)
                #expect(results.allSatisfy { (try? $0.get()) == Account(id: 1) })
                #expect(await session.refreshes() == 1)
                #expect(session.auth.credential?.access == "access-2")
                #expect(metrics.counters(label: "backstop_refreshes_total", dimensions: [("outcome", "succeeded")]).first?.lastValue == 1)
                #expect(metrics.counters(label: "backstop_requests_total").reduce(0) { $0 + ($1.totalValue) } == Int64(Self.calls))
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(
            "1,000 calls and a refresh that fails: one refresh; each call keeps its error or finds the session signed out",
            arguments: TransportKind.allCases)
        func aThousandCallsShareOneFailedRefresh(transport: TransportKind) async throws {
            try await Self.observed(transport, refresh: .fails) { session, metrics in
                await session.expireToken()
                let start = ContinuousClock.now
                let results = await Self.thousandCalls(session)
                print("\(Self.calls) calls with a failed refresh (\(transport.rawValue)) in \(ContinuousClock.now - start)")
                #expect(results.count == Self.calls)
                // A call that starts once the refresh has failed finds the session signed out: on a
                // loaded machine some do. Either way none succeeds and none refreshes again.
                let keptRefreshError = results.count { $0.failure?.refreshError?.role == .signInRequired }
                let signedOut = results.count { $0.failure?.clientReason == .signedOut }
                #expect(keptRefreshError >= 1)
                #expect(keptRefreshError + signedOut == Self.calls)
                #expect(await session.refreshes() == 1)
                #expect(metrics.counters(label: "backstop_refreshes_total", dimensions: [("outcome", "failed")]).first?.lastValue == 1)
                let reasons = try await session.signedOutReasons()
                #expect(reasons == [.refreshFailed, .signInRequired])
            }
        }
    }
}
