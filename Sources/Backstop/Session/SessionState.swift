import Foundation

/// The credential of one session and its refreshes, shared by every request through one
/// ``AuthenticationMiddleware``: the single-flight rules live here.
///
/// Each credential has a generation, one more at every refresh or sign-in, so a request
/// that failed with an older credential than the current one is replayed without a refresh.
final class SessionState<Credential: Sendable>: @unchecked Sendable {
    /// A credential and its generation.
    struct Issued: Sendable {
        var credential: Credential
        var generation: Int
    }

    private enum Phase {
        case signedIn(Credential)
        case refreshing(Task<Void, Never>)
        case signedOut(ClientFailure)
    }

    private let lock = NSLock()
    private var phase: Phase
    private var generation = 0
    /// When each recent refresh started, on `elapsed`'s clock.
    private var refreshes: [Duration] = []
    private let limit: RefreshLimit
    private let elapsed: @Sendable () -> Duration
    private let events: AsyncStream<SignedOut>.Continuation
    private let recordRefresh: @Sendable (String) -> Void

    init<C: Clock>(
        credential: Credential?, limit: RefreshLimit, clock: C,
        events: AsyncStream<SignedOut>.Continuation, recordRefresh: @escaping @Sendable (String) -> Void
    ) where C.Duration == Duration {
        phase = credential.map(Phase.signedIn) ?? .signedOut(ClientFailure(.signedOut))
        self.limit = limit
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        self.events = events
        self.recordRefresh = recordRefresh
    }

    /// The current credential, once any refresh under way has ended.
    func current() async throws(AuthenticationError) -> Issued {
        while true {
            switch lock.withLock({ (phase, generation) }) {
            case (.signedIn(let credential), let generation): return Issued(credential: credential, generation: generation)
            case (.refreshing(let task), _): await task.value
            case (.signedOut(let failure), _): throw AuthenticationError(failure)
            }
        }
    }

    /// A credential newer than generation `stale`: the current one when it is newer already,
    /// else the result of the one refresh that all callers share.
    func refreshed(
        after stale: Int, with refresh: @escaping @Sendable (Credential) async throws -> Credential
    ) async throws(AuthenticationError) -> Issued {
        while true {
            switch lock.withLock({ step(after: stale, with: refresh) }) {
            case .done(let issued): return issued
            case .failed(let error, let tooMany):
                if tooMany { recordRefresh("tooMany") }
                throw error
            case .wait(let task):
                await task.value
            }
        }
    }

    private enum Step {
        case done(Issued)
        case wait(Task<Void, Never>)
        case failed(AuthenticationError, tooMany: Bool)
    }

    /// What a caller holding the lock does next for a credential newer than `stale`.
    private func step(after stale: Int, with refresh: @escaping @Sendable (Credential) async throws -> Credential) -> Step {
        switch phase {
        case .refreshing(let task):
            return .wait(task)
        case .signedOut(let failure):
            return .failed(AuthenticationError(failure), tooMany: false)
        case .signedIn(let credential):
            if generation > stale { return .done(Issued(credential: credential, generation: generation)) }
            let now = elapsed()
            refreshes.removeAll { now - $0 >= limit.window }
            guard refreshes.count < limit.maximumRefreshes else {
                let failure = ClientFailure(.tooManyRefreshes, detail: "\(refreshes.count) refreshes within \(limit.window)")
                return .failed(AuthenticationError(signOutLocked(.tooManyRefreshes, failure: failure)), tooMany: true)
            }
            refreshes.append(now)
            // Detached: the refresh serves every waiting request, not the one that started it.
            let task = Task.detached { await self.run(refresh, from: credential) }
            phase = .refreshing(task)
            return .wait(task)
        }
    }

    private func run(_ refresh: @Sendable (Credential) async throws -> Credential, from credential: Credential) async {
        do {
            let fresh = try await refresh(credential)
            lock.withLock {
                guard case .refreshing = phase else { return }
                phase = .signedIn(fresh)
                generation += 1
            }
            recordRefresh("succeeded")
        } catch {
            recordRefresh("failed")
            lock.withLock {
                guard case .refreshing = phase else { return }
                _ = signOutLocked(.refreshFailed, failure: ClientFailure(
                    .tokenRefreshFailed, detail: "the credential could not be refreshed", underlying: error))
            }
        }
    }

    /// Starts a session with `credential`.
    func signIn(_ credential: Credential) {
        lock.withLock {
            phase = .signedIn(credential)
            generation += 1
            refreshes = []
        }
    }

    /// Ends the session because the app asked, without an event.
    func signOut() {
        lock.withLock { phase = .signedOut(ClientFailure(.signedOut, detail: "the app signed out")) }
    }

    /// Ends the session because the backend asked, when `generation` is still the current
    /// one: a stale credential's answer says nothing about the session after it.
    func signOut(because reason: SignedOut.Reason, generation stale: Int) {
        lock.withLock {
            guard case .signedIn = phase, generation == stale else { return }
            _ = signOutLocked(reason, failure: ClientFailure(.signedOut, detail: "the backend asked the user to sign in"))
        }
    }

    /// The credential, unless signed out.
    var credential: Credential? {
        lock.withLock {
            guard case .signedIn(let credential) = phase else { return nil }
            return credential
        }
    }

    /// Signs out and publishes the event, once: the caller holds the lock.
    private func signOutLocked(_ reason: SignedOut.Reason, failure: ClientFailure) -> ClientFailure {
        if case .signedOut(let earlier) = phase { return earlier }
        phase = .signedOut(failure)
        events.yield(SignedOut(reason: reason))
        return failure
    }
}
