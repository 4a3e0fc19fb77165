import Synchronization

/// A clock whose sleeps return at once, each moving its time forward and being recorded,
/// so a test can read the waits a middleware asked for.
final class RecordingClock: Clock, Sendable {
    typealias Duration = Swift.Duration
    typealias Instant = ContinuousClock.Instant

    private let state = Mutex<(now: ContinuousClock.Instant, sleeps: [Duration])>((ContinuousClock.now, []))

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(deadline - state.now)
            state.now = max(state.now, deadline)
        }
    }
}
