/// The hedging stage of a ``ClientPipeline``: when an idempotent attempt has not answered after
/// a delay, the same request is sent again beside it, and the first answer wins.
///
/// Rules a test can check:
/// - Only requests that may be sent twice are hedged: the methods ``RetryPolicy`` retries
///   (GET, HEAD, PUT, DELETE, OPTIONS, TRACE) unless the endpoint says it is not idempotent.
/// - At most ``maximumHedges`` extra requests per attempt, each one delay after the previous
///   one, each drawing on the pipeline's ``RetryBudget`` (none is sent when it is spent).
/// - The delay is fixed (``init(delay:maximumHedges:)``), or a percentile of the operation's
///   recent latencies (``init(percentile:minimum:fallback:maximumHedges:)``); see ``Delay``.
/// - The first answer the retry rules would not retry wins, whatever its status (a 200, a
///   404): the call goes on with it at once and the other requests are cancelled. Through
///   ``APIClient`` the call does not wait for them to end; through ``PipelineMiddleware`` it
///   does, because they use the generated client's `next`, which must not outlive the call.
/// - Through ``APIClient``, on ``StreamingURLSessionTransport`` or `HTTPClientTransport` with no
///   middleware in front and no authentication to wait on, the first request runs in the
///   caller's task, as a call without hedging does, and only hedges start tasks: a hedge that
///   wins ends the first request through its transport, and the call goes on once that request
///   has heard it.
/// - A failure the retry rules would retry (a 503, a `timedOut`) does not win: as in Polly, the
///   next hedge is sent at once, without waiting for the delay, if one may still go. A failure
///   they would not retry (offline) sends no hedge.
/// - When every request sent has failed, the first failure to end is the attempt's: its
///   answer (the 503) or its error, which the retry stage above then sees.
/// - Cancelling the call cancels every request it has sent.
/// - Each hedge is an attempt in the call's log line and metrics, with the retry reason `hedge`.
///
/// A value that keeps references: copies (and copies of a ``ClientPipeline`` holding one) share
/// the operations' latencies that a percentile delay learns from, and the hedges' timers. Make a
/// separate value for pipelines whose latencies should be learned apart.
///
/// Off unless set. It trades load on the backend for tail latency: use it for reads whose
/// slow answers are the backend's, not for calls that are slow for everyone.
public struct Hedging: Sendable {
    /// When a hedge is sent.
    public var delay: Delay
    /// The most extra requests per attempt.
    public var maximumHedges: Int
    /// Each operation's recent latencies, shared by the copies of this value: every
    /// ``ClientPipeline`` given a copy learns from, and hedges by, the same latencies.
    let latencies = LatencyWindows()
    /// The hedges' deadlines on the system's clocks, shared by every copy of this value.
    let timers = DeadlineTimers()

    /// Hedging after a fixed delay.
    ///
    /// - Parameters:
    ///   - delay: How long an attempt may go without an answer before a hedge is sent; not negative.
    ///   - maximumHedges: The most extra requests per attempt, from 0 to 10; 1 unless given.
    /// - Precondition: Every value within the range given above. A value outside it is a
    ///   programmer error that stops the program here, not a value quietly changed.
    public init(delay: Duration, maximumHedges: Int = 1) {
        precondition(delay >= .zero, "Hedging: delay must not be negative, not \(delay)")
        Self.check(maximumHedges: maximumHedges)
        self.delay = .fixed(delay)
        self.maximumHedges = maximumHedges
    }

    /// Hedging after the `percentile` of the operation's recent latencies, as Envoy and gRPC
    /// hedge: a hedge goes out only for the slowest attempts, however fast the operation is.
    ///
    /// - Parameters:
    ///   - percentile: Which latency, from 50 to 99.9: 95 hedges about one attempt in twenty.
    ///   - minimum: The shortest delay, so a fast operation is not hedged at its noise; not negative.
    ///   - fallback: The delay until the operation has ``Delay/minimumSamples`` answers; not negative.
    ///   - maximumHedges: The most extra requests per attempt, from 0 to 10; 1 unless given.
    /// - Precondition: Every value within the range given above. A value outside it is a
    ///   programmer error that stops the program here, not a value quietly changed.
    public init(percentile: Double, minimum: Duration = .milliseconds(20), fallback: Duration = .seconds(1), maximumHedges: Int = 1) {
        precondition((50...99.9).contains(percentile), "Hedging: percentile must be from 50 to 99.9, not \(percentile)")
        precondition(minimum >= .zero, "Hedging: minimum must not be negative, not \(minimum)")
        precondition(fallback >= .zero, "Hedging: fallback must not be negative, not \(fallback)")
        Self.check(maximumHedges: maximumHedges)
        self.delay = .percentile(percentile, minimum: minimum, fallback: fallback)
        self.maximumHedges = maximumHedges
    }

    /// Each hedge is one more request to a backend that is slow already: more than 10 is a mistake.
    private static func check(maximumHedges: Int) {
        precondition((0...10).contains(maximumHedges), "Hedging: maximumHedges must be from 0 to 10, not \(maximumHedges)")
    }

    /// How long the next attempt of `operationID` may go without an answer before a hedge is sent.
    public func delay(for operationID: String) -> Duration {
        switch delay {
        case .fixed(let delay):
            return delay
        case .percentile(let percentile, let minimum, let fallback):
            guard let latency = latencies.percentile(percentile, of: operationID) else { return fallback }
            return max(latency, minimum)
        }
    }
}
