import Foundation
import Observation

/// Shows recovery alerts one at a time and performs what the user chooses; bind it to a
/// SwiftUI `.alert`.
///
/// ```swift
/// do { try await feed.load() } catch { presenter.present(error, retry: { try await feed.load() }) }
/// ```
///
/// It follows ``RecoveryReducer``'s rules: alerts wait their turn; identical alerts raised
/// while one is pending merge, and its retry re-runs every merged operation; cancelled
/// requests show nothing. Retry runs the operations again, concurrently, and an operation
/// that fails again raises a fresh alert rather than retrying on its own. Sign-in and
/// app-defined actions are published on ``routes``. Choices for an alert that is no longer
/// shown are ignored, so a SwiftUI binding that closes the alert after a button ran is harmless.
///
/// Observation needs macOS 14, iOS 17, tvOS 17 or watchOS 10 on Apple platforms; earlier
/// systems use ``RecoveryReducer`` directly.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@Observable
public final class RecoveryPresenter {
    /// Builds the alerts; changes apply to alerts raised afterwards.
    public var policy: RecoveryPolicy
    /// The language of the alerts; `nil` for the user's first preferred language.
    public var locale: Locale?
    /// Where to take the user after sign-in or an app-defined action, from now on: each access
    /// is a stream of its own, so any number of observers each hear every route.
    ///
    /// Subscribe before the routes you want to hear: one published while no stream is open is
    /// kept by nobody. A stream that is not read keeps only the newest 100 routes. The streams
    /// end with the presenter.
    public var routes: AsyncStream<RecoveryRoute> { routeBroadcast.subscribe() }

    private var state = RecoveryReducer<Int>.State()
    @ObservationIgnored private let routeBroadcast = EventBroadcast<RecoveryRoute>()
    @ObservationIgnored private var operations: [Int: Operation] = [:]
    @ObservationIgnored private var nextOperation = 0

    /// A presenter with no alert; `policy` defaults to ``RecoveryPolicy/standard`` as it is now.
    public init(policy: RecoveryPolicy = .standard, locale: Locale? = nil) {
        self.policy = policy
        self.locale = locale
    }

    deinit {
        routeBroadcast.finish()
    }

    /// How many streams of ``routes`` are open now.
    package var routeSubscriptions: Int { routeBroadcast.subscriptions }

    /// The alert to show now, if any.
    public var alert: RecoveryAlert? { state.alert }

    /// The alerts waiting for the shown one to close, oldest first.
    public var waitingAlerts: [RecoveryAlert] { state.waiting.map(\.alert) }

    /// Shows the alert for `error`, or queues or merges it; `retry` is what the alert's retry
    /// runs again. Cancelled errors show nothing.
    ///
    /// When `retry` fails again with an `APIError<General, Module>`, that error is presented
    /// with the same `retry`. Any other error is taken for the networking stack's and
    /// classified with ``TransportFailure/init(_:)``, so a cancelled retry shows nothing.
    public func present<General, Module>(
        _ error: APIError<General, Module>,
        retry: (@MainActor @Sendable () async throws -> Void)? = nil
    ) {
        guard let alert = policy.alert(for: error, locale: locale) else { return }
        var request: Int?
        if let retry {
            let id = nextOperation
            nextOperation += 1
            request = id
            operations[id] = { [weak self] in
                do {
                    try await retry()
                } catch let error as APIError<General, Module> {
                    self?.present(error, retry: retry)
                } catch {
                    self?.present(APIError<General, Module>.transport(TransportFailure(error)), retry: retry)
                }
            }
        }
        _ = apply(.raise(alert, retry: request))
    }

    /// Performs `action` of the shown alert `alert` and shows the next one.
    ///
    /// - Returns: The task re-running the operations when the action is a retry, to await
    ///   in tests; `nil` otherwise.
    @discardableResult
    public func perform(_ action: RecoveryAction.ID, on alert: RecoveryAlert.ID) -> Task<Void, Never>? {
        let (effect, retrying) = apply(.choose(action, on: alert))
        switch effect {
        case .none:
            return nil
        case .route(let route):
            routeBroadcast.publish(route)
            return nil
        case .retry:
            return Task {
                await withTaskGroup(of: Void.self) { group in
                    for operation in retrying {
                        group.addTask { await operation() }
                    }
                }
            }
        }
    }

    /// Closes the shown alert `alert` without a choice, as a SwiftUI binding does; shows the next one.
    public func dismiss(_ alert: RecoveryAlert.ID) {
        _ = apply(.dismiss(alert))
    }

    private typealias Operation = @MainActor @Sendable () async -> Void

    /// Runs one step of the rules and drops the operations no alert holds any more; returns
    /// the effect and, for a retry, the operations to run.
    private func apply(_ action: RecoveryReducer<Int>.Action) -> (RecoveryReducer<Int>.Effect, [Operation]) {
        let (next, effect) = RecoveryReducer.reduce(state, action)
        state = next
        var retrying: [Operation] = []
        if case .retry(let ids) = effect { retrying = ids.compactMap { operations[$0] } }
        let held = Set(([state.shown].compactMap { $0 } + state.waiting).flatMap(\.requests))
        operations = operations.filter { held.contains($0.key) }
        return (effect, retrying)
    }
}
