/// The hedging stage of a ``ClientPipeline``: when an idempotent attempt has not answered after
/// ``delay``, the same request is sent again beside it, and the first answer wins.
///
/// Rules a test can check:
/// - Only requests that may be sent twice are hedged: the methods ``RetryPolicy`` retries
///   (GET, HEAD, PUT, DELETE, OPTIONS, TRACE) unless the endpoint says it is not idempotent.
/// - At most ``maximumHedges`` extra requests per attempt, each ``delay`` after the previous one,
///   each drawing on the pipeline's ``RetryBudget`` (none is sent when it is spent).
/// - The first response, whatever its status, wins and the other requests are cancelled; when
///   every request fails without a response, the first failure is the attempt's.
/// - Each hedge is an attempt in the call's log line and metrics, with the retry reason `hedge`.
///
/// Off unless set. It trades load on the backend for tail latency: use it for reads whose
/// slow answers are the backend's, not for calls that are slow for everyone.
public struct Hedging: Sendable, Hashable {
    /// How long an attempt may go without an answer before the next hedge is sent.
    public var delay: Duration
    /// The most extra requests per attempt.
    public var maximumHedges: Int

    /// A hedging stage.
    ///
    /// - Parameters:
    ///   - delay: How long an attempt may go without an answer before a hedge is sent.
    ///   - maximumHedges: The most extra requests per attempt; 1 unless given.
    public init(delay: Duration, maximumHedges: Int = 1) {
        self.delay = max(delay, .zero)
        self.maximumHedges = max(maximumHedges, 0)
    }
}
