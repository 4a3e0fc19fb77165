import Foundation

/// The credential of one ``AuthSession`` and its refreshes, shared by every call that uses
/// the session: the single-flight rules live here.
///
/// Each credential has a generation, one more at every refresh or sign-in, so a call that
/// failed with an older credential than the current one is replayed without a refresh; and a
/// sign-in count, one more at every sign-in and sign-out, so coalescing can tell one user's
/// credential, refreshed or not, from the next one's.
final class SessionState<A: Authenticator>: Sendable {
    /// A credential, its generation, and the sign-in it belongs to.
    struct Issued: Sendable {
        var credential: A.Credential
        var generation: Int
        var signIn: Int
    }

    private enum Phase: Sendable {
        case signedIn(A.Credential)
        case refreshing(RefreshFlight, from: A.Credential)
        case signedOut(ClientFailure)
    }

    private struct State: Sendable {
        var phase: Phase
        var generation = 0
        /// One more at every sign-in and sign-out, not at a refresh.
        var signIns = 0
        /// When each recent refresh started, on `elapsed`'s clock.
        var refreshes: [Duration] = []
        /// Whose answers calls save (``SavedAnswerKey/user``); `nil` while signed out.
        var user: String?
    }

    private let authenticator: A
    private let state: LockedValue<State>
    private let limit: RefreshLimit
    private let elapsed: @Sendable () -> Duration
    /// A refresh's deadline, taken when it starts, and the sleep until it on the session's
    /// clock; `nil` when refreshes have none. Taken at once, so a test clock advanced past it
    /// later passes it however the tasks interleave.
    private let refreshDeadline: (@Sendable () -> @Sendable () async throws -> Void)?
    private let events: EventBroadcast<SignedOut>
    /// Hears the name of a user who signed out, or whom another user replaced, to remove that
    /// user's saved answers.
    private let userLeft: @Sendable (String) -> Void

    init(
        authenticator: A, credential: A.Credential?, limit: RefreshLimit, refreshTimeout: Duration?, clock: some Clock<Duration>,
        events: EventBroadcast<SignedOut>, userLeft: @escaping @Sendable (String) -> Void
    ) {
        self.authenticator = authenticator
        var initial = State(phase: credential.map(Phase.signedIn) ?? .signedOut(ClientFailure(.signedOut)))
        initial.user = credential.map { Self.user(of: $0, by: authenticator) }
        state = LockedValue(initial)
        self.userLeft = userLeft
        self.limit = limit
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        refreshDeadline = refreshTimeout.map { Self.deadlines(after: $0, on: clock) }
        self.events = events
    }

    /// The current credential's generation: one more at every refresh or sign-in.
    var generation: Int { state.withLock { $0.generation } }

    /// The current sign-in: one more at every sign-in and sign-out, the app's or the backend's.
    var signIn: Int { state.withLock { $0.signIns } }

    /// Whose answers calls save now; `nil` while signed out.
    var savedAnswerUser: String? { state.withLock { $0.user } }

    /// The name of `credential`'s user: the authenticator's, else one made afresh, never
    /// given to another sign-in.
    private static func user(of credential: A.Credential, by authenticator: A) -> String {
        authenticator.savedAnswerUser(of: credential) ?? "sign-in-" + UUID().uuidString
    }

    /// Makes each refresh's deadline, `timeout` after it starts on `clock`, and the sleep until it.
    ///
    /// Saturating: a timeout of more than a century waits a century, as good as never, where an
    /// instant that far ahead would overflow the clock's own arithmetic.
    private static func deadlines<C: Clock<Duration>>(
        after timeout: Duration, on clock: C
    ) -> @Sendable () -> @Sendable () async throws -> Void {
        let timeout = min(timeout, .seconds(100 * 365 * 24 * 3600))
        return {
            let deadline = clock.now.advanced(by: timeout)
            return { try await clock.sleep(until: deadline, tolerance: nil) }
        }
    }

    /// The current credential, once any refresh under way has ended.
    func current() async throws -> Issued {
        while true {
            let (phase, generation, signIn) = state.withLock { ($0.phase, $0.generation, $0.signIns) }
            switch phase {
            case .signedIn(let credential): return Issued(credential: credential, generation: generation, signIn: signIn)
            case .refreshing(let flight, _): try await settle(flight)
            case .signedOut(let failure): throw AuthenticationError(failure)
            }
        }
    }

    /// A credential newer than generation `stale`: the current one when it is newer already,
    /// else the result of the one refresh that all callers share.
    ///
    /// `refreshes` hears how a refresh started here ends; `span`, the call's, traces it.
    func refreshed(after stale: Int, refreshes: (@Sendable (String) -> Void)?, span: (any CallSpan)?) async throws -> Issued {
        while true {
            switch state.withLock({ step(after: stale, refreshes: refreshes, span: span, in: &$0) }) {
            case .done(let issued): return issued
            case .wait(let flight): try await settle(flight)
            case .failed(let error, let tooMany):
                if tooMany { refreshes?("tooMany") }
                throw error
            }
        }
    }

    private enum Step {
        case done(Issued)
        case wait(RefreshFlight)
        case failed(AuthenticationError, tooMany: Bool)
    }

    /// What a caller holding the lock does next for a credential newer than `stale`.
    private func step(
        after stale: Int, refreshes: (@Sendable (String) -> Void)?, span: (any CallSpan)?, in state: inout State
    ) -> Step {
        switch state.phase {
        case .refreshing(let flight, _):
            return .wait(flight)
        case .signedOut(let failure):
            return .failed(AuthenticationError(failure), tooMany: false)
        case .signedIn(let credential):
            if state.generation > stale {
                return .done(Issued(credential: credential, generation: state.generation, signIn: state.signIns))
            }
            let now = elapsed()
            state.refreshes.removeAll { now - $0 >= limit.window }
            guard state.refreshes.count < limit.maximumRefreshes else {
                let failure = ClientFailure(.tooManyRefreshes, detail: "\(state.refreshes.count) refreshes within \(limit.window)")
                return .failed(AuthenticationError(signOut(.tooManyRefreshes, failure: failure, in: &state)), tooMany: true)
            }
            state.refreshes.append(now)
            let flight = RefreshFlight()
            state.phase = .refreshing(flight, from: credential)
            // Detached: the refresh serves every waiting call, and outlives the one that started it
            // if that one is cancelled.
            let generation = state.generation
            Task.detached {
                if let span {
                    // A detached task inherits no trace context: the call's span hands its own on.
                    await span.traceRefresh {
                        await self.run(flight, from: credential, generation: generation, startedAt: now, refreshes: refreshes)
                    }
                } else {
                    _ = await self.run(flight, from: credential, generation: generation, startedAt: now, refreshes: refreshes)
                }
            }
            if let deadline = refreshDeadline?() {
                // Its own task: a refresh that never returns must not hold its waiting calls. The
                // refresh is not cancelled: an answer that comes later is still the session's.
                flight.timer = Task.detached {
                    guard (try? await deadline()) != nil, !Task.isCancelled else { return }
                    self.expire(flight, from: credential, startedAt: now, refreshes: refreshes)
                }
            }
            return .wait(flight)
        }
    }

    /// Waits for `flight`; throws its failure, or `CancellationError` when the waiting task is cancelled.
    private func settle(_ flight: RefreshFlight) async throws {
        switch try await flight.outcome() {
        case .refreshed: return
        case .interrupted(let interrupted): throw interrupted
        case .ended(let failure): throw AuthenticationError(failure)
        }
    }

    /// Refreshes `credential` for `flight`'s waiters; answers how it ended (`succeeded`,
    /// `failed`, `interrupted`), as metrics and traces name it.
    private func run(
        _ flight: RefreshFlight, from credential: A.Credential, generation: Int, startedAt: Duration,
        refreshes: (@Sendable (String) -> Void)?
    ) async -> String {
        let outcome: RefreshFlight.Outcome
        let name: String
        do {
            let fresh = try await authenticator.refresh(credential)
            outcome = state.withLock { state in
                switch state.phase {
                case .refreshing(let current, _) where current === flight:
                    break
                case .signedIn where state.generation == generation:
                    // Given up at the refresh timeout, answered since, and the session has not moved
                    // on: the credential is kept, as a backend that rotates refresh tokens has
                    // retired the old one already.
                    break
                default:
                    return .refreshed
                }
                state.phase = .signedIn(fresh)
                state.generation += 1
                return .refreshed
            }
            name = "succeeded"
        } catch {
            let endsSession = authenticator.endsSession(after: error)
            outcome = state.withLock { state in
                // Signed in or out while it ran: the session has moved on, and its waiters see where to.
                guard case .refreshing(let current, _) = state.phase, current === flight else { return .refreshed }
                guard endsSession else {
                    state.phase = .signedIn(credential)
                    // It made no credential, so it does not count towards the limit on refreshes.
                    if let index = state.refreshes.lastIndex(of: startedAt) { state.refreshes.remove(at: index) }
                    return .interrupted(RefreshInterrupted(error: error))
                }
                let failure = ClientFailure(.tokenRefreshFailed, detail: "the credential could not be refreshed", underlying: error)
                return .ended(signOut(.refreshFailed, failure: failure, in: &state))
            }
            name = endsSession ? "failed" : "interrupted"
        }
        // A refresh given up at its timeout was reported then.
        if !flight.isFinished { refreshes?(name) }
        flight.finish(outcome)
        return name
    }

    /// Gives up `flight`, whose refresh outlived the session's refresh timeout: its waiters fail
    /// as `.transport` `timedOut` and the credential is kept, unless the session moved on.
    private func expire(
        _ flight: RefreshFlight, from credential: A.Credential, startedAt: Duration, refreshes: (@Sendable (String) -> Void)?
    ) {
        let expired = state.withLock { state in
            guard case .refreshing(let current, _) = state.phase, current === flight else { return false }
            state.phase = .signedIn(credential)
            // It made no credential, so it does not count towards the limit on refreshes.
            if let index = state.refreshes.lastIndex(of: startedAt) { state.refreshes.remove(at: index) }
            return true
        }
        guard expired else { return }
        refreshes?("interrupted")
        flight.finish(.interrupted(RefreshInterrupted(error: TransportFailure(.timedOut, underlying: RefreshTimedOut()))))
    }

    /// Starts a session with `credential`.
    func signIn(_ credential: A.Credential) {
        let user = Self.user(of: credential, by: authenticator)
        let (replaced, left): (RefreshFlight?, String?) = state.withLock { state in
            let left = state.user == user ? nil : state.user
            defer {
                state.phase = .signedIn(credential)
                state.generation += 1
                state.signIns += 1
                state.refreshes = []
                state.user = user
            }
            if case .refreshing(let flight, _) = state.phase { return (flight, left) }
            return (nil, left)
        }
        if let left { userLeft(left) }
        replaced?.finish(.refreshed)
    }

    /// Ends the session because the app asked, without an event.
    func signOut() {
        let (replaced, left): (RefreshFlight?, String?) = state.withLock { state in
            let left = state.user
            defer {
                state.phase = .signedOut(ClientFailure(.signedOut, detail: "the app signed out"))
                state.signIns += 1
                state.user = nil
            }
            if case .refreshing(let flight, _) = state.phase { return (flight, left) }
            return (nil, left)
        }
        if let left { userLeft(left) }
        replaced?.finish(.refreshed)
    }

    /// Ends the session because the backend asked, when `generation` is still the current
    /// one: a stale credential's answer says nothing about the session after it.
    func signOut(because reason: SignedOut.Reason, generation stale: Int) {
        state.withLock { state in
            guard case .signedIn = state.phase, state.generation == stale else { return }
            _ = signOut(reason, failure: ClientFailure(.signedOut, detail: "the backend asked the user to sign in"), in: &state)
        }
    }

    /// How many calls wait for the refresh under way now.
    var refreshWaiters: Int {
        let flight: RefreshFlight? = state.withLock { state in
            if case .refreshing(let flight, _) = state.phase { return flight }
            return nil
        }
        return flight?.waiters ?? 0
    }

    /// The credential, unless signed out; during a refresh, the one being refreshed.
    var credential: A.Credential? {
        state.withLock { state in
            switch state.phase {
            case .signedIn(let credential), .refreshing(_, let credential): credential
            case .signedOut: nil
            }
        }
    }

    /// Signs out and publishes the event, once: the caller holds the lock.
    private func signOut(_ reason: SignedOut.Reason, failure: ClientFailure, in state: inout State) -> ClientFailure {
        if case .signedOut(let earlier) = state.phase { return earlier }
        state.phase = .signedOut(failure)
        state.signIns += 1
        // Under the session's lock: a store removes at once, and never calls back into a session.
        if let left = state.user { userLeft(left) }
        state.user = nil
        events.publish(SignedOut(reason: reason))
        return failure
    }
}
