/// The server's clock, any `Clock<Duration>`, reduced to what BadBackend asks of it.
///
/// Times are offsets from when the server was made, so one type serves a `ContinuousClock`
/// in production and a test clock that a test advances by hand.
struct BackendClock: Sendable {
    /// Time since the server was made.
    let elapsed: @Sendable () -> Duration
    /// Returns once `elapsed()` reaches the offset.
    let sleep: @Sendable (_ until: Duration) async throws -> Void
    /// Whether it is the system's own `ContinuousClock`, whose deadlines the event loop can keep.
    let isContinuous: Bool

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        isContinuous = C.self == ContinuousClock.self
        elapsed = { start.duration(to: clock.now) }
        sleep = { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
    }
}
