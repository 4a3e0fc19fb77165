import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import InMemoryLogging
import Logging

/// What the hedging tests start from: the server's clock, which holds BadBackend's slow answers
/// until the test moves it; the client's clock, which the test moves past the hedge's delay; the
/// log handler that holds each call's line; and a pipeline that hedges after `delay` on them.
struct HedgingFixture {
    let serverClock = TestClock()
    let clock = TestClock()
    let logs = InMemoryLogHandler.keepingDebug()
    let delay: Duration

    init(delay: Duration = .seconds(2)) {
        self.delay = delay
    }

    /// A ``quietPipeline()`` that hedges after ``delay`` on ``clock`` and logs into ``logs``, with
    /// whatever else `configure` sets.
    func pipeline(_ configure: (inout ClientPipeline) -> Void = { _ in }) -> ClientPipeline {
        quietPipeline {
            $0.hedging = Hedging(delay: delay)
            $0.clock = clock
            $0.logging = RequestLogging(logger: Logger(label: "hedging") { _ in logs })
            configure(&$0)
        }
    }

    /// The real client of BadBackend at `url` on `transport`, through ``pipeline(_:)``.
    func client(
        _ url: URL, _ transport: TransportKind, _ configure: (inout ClientPipeline) -> Void = { _ in }
    ) -> APIClient<GeneralCode> {
        makeClient(url, transport, pipeline: pipeline(configure))
    }

    /// Runs a fresh BadBackend on ``serverClock`` around `body`.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func withBackend(_ body: (BadBackend, URL) async throws -> Void) async throws {
        try await BackstopTestSupport.withBackend(clock: serverClock, body)
    }
}
