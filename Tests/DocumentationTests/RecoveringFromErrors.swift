import Backstop
import Testing

// The code of the DocC article "Recovering from Errors" that the app around it shares; the rest
// of the article is compiled and run by BackstopTests' RecoveryArticleTests.

extension RecoveryAction {
    static let openSettings = RecoveryAction("openSettings", title: "Open Settings")
    static let contactSupport = RecoveryAction("contactSupport", title: "Contact Support")
}

/// A screen's alerts, one at a time, without Observation: RecoveryReducer's rules in a class.
@MainActor
final class AlertQueue<Request: Equatable & Sendable> {
    private(set) var state = RecoveryReducer<Request>.State()
    /// Shows an alert, or takes the shown one away when `nil`.
    var present: (RecoveryAlert?) -> Void = { _ in }
    /// Re-sends a request whose alert's Try Again was chosen.
    var retry: (Request) -> Void = { _ in }
    /// Takes the user to sign-in, or to an app action's destination.
    var route: (RecoveryRoute) -> Void = { _ in }

    func failed<General, Module>(_ error: APIError<General, Module>, retry request: Request?, policy: RecoveryPolicy = .standard) {
        guard let alert = policy.alert(for: error) else { return }
        send(.raise(alert, retry: request))
    }

    func choose(_ action: RecoveryAction.ID, on alert: RecoveryAlert.ID) {
        send(.choose(action, on: alert))
    }

    private func send(_ action: RecoveryReducer<Request>.Action) {
        let shown = state.alert?.id
        let (next, effect) = RecoveryReducer.reduce(state, action)
        state = next
        if state.alert?.id != shown { present(state.alert) }
        switch effect {
        case .none: break
        case .retry(let requests): requests.forEach(retry)
        case .route(let destination): route(destination)
        }
    }
}

@Suite("Recovering from Errors: the UIKit recipe's AlertQueue")
@MainActor
struct AlertQueueTests {
    @Test("it shows one alert for identical failures, and Try Again re-sends each request once")
    func mergesAndRetries() throws {
        let queue = AlertQueue<String>()
        var presented: [RecoveryCategory?] = []
        var retried: [String] = []
        queue.present = { presented.append($0?.category) }
        queue.retry = { retried.append($0) }
        let offline = AppError<NoModuleCodes>.transport(TransportFailure(.offline))
        queue.failed(offline, retry: "feed")
        queue.failed(offline, retry: "profile")
        #expect(presented == [.offline])
        let alert = try #require(queue.state.alert)
        queue.choose(.retry, on: alert.id)
        #expect(retried == ["feed", "profile"])
        #expect(presented == [.offline, nil])
    }

    @Test("a second, different alert waits its turn; signing in is a route")
    func queuesAndRoutes() throws {
        let queue = AlertQueue<String>()
        var presented: [RecoveryCategory?] = []
        var routes: [String] = []
        queue.present = { presented.append($0?.category) }
        queue.route = { if case .signIn = $0 { routes.append("signIn") } }
        queue.failed(AppError<NoModuleCodes>.transport(TransportFailure(.offline)), retry: nil)
        queue.failed(AppError<NoModuleCodes>.client(ClientFailure(.signedOut)), retry: nil)
        let first = try #require(queue.state.alert)
        queue.choose(.cancel, on: first.id)
        let second = try #require(queue.state.alert)
        #expect(presented == [.offline, .unauthorized])
        queue.choose(.signIn, on: second.id)
        #expect(routes == ["signIn"])
        #expect(presented == [.offline, .unauthorized, nil])
    }
}
