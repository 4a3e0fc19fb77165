import Backstop
import BackstopTestSupport
import Foundation
import Observation
import Testing

@MainActor
@Suite("The recovery presenter", .englishMessages)
struct RecoveryPresenterTests {
    /// What the operations handed to the presenter did.
    @MainActor final class Runs {
        var pages: [Int] = []
    }

    /// Set by an observation callback, which may run on any thread.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var raised = false
        var isRaised: Bool { lock.withLock { raised } }
        func raise() { lock.withLock { raised = true } }
    }

    final class Probe: Sendable {}

    let offline = StudyGroupError.transport(TransportFailure(.offline))
    let serverFailure = StudyGroupError.http(HTTPFailure(status: .internalServerError))
    let unauthorized = StudyGroupError.http(HTTPFailure(status: .unauthorized))

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    func makePresenter() -> RecoveryPresenter {
        RecoveryPresenter(
            policy: RecoveryPolicy(
                catalog: .builtIn,
                overrides: [
                    .category(.offline): RecoveryOverride(actions: [.retry, .openSettings, .cancel])
                ]), locale: Locale(identifier: "en"))
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("five parallel requests failing offline show one alert whose retry re-runs all five")
    func mergeAndRetry() async throws {
        let presenter = makePresenter()
        let runs = Runs()
        for page in 1...5 {
            presenter.present(offline, retry: { runs.pages.append(page) })
        }
        let alert = try #require(presenter.alert)
        #expect(alert.title == "You're Offline")
        #expect(presenter.waitingAlerts.isEmpty)
        #expect(runs.pages.isEmpty)

        await presenter.perform(.retry, on: alert.id)?.value
        #expect(runs.pages.sorted() == [1, 2, 3, 4, 5])
        #expect(presenter.alert == nil)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("a retry that fails again raises a fresh alert, merged, and does not run again on its own")
    func failsAgain() async throws {
        let presenter = makePresenter()
        let runs = Runs()
        let offline = offline
        for page in 1...3 {
            presenter.present(
                offline,
                retry: {
                    runs.pages.append(page)
                    if page != 2 { throw offline }
                })
        }
        let first = try #require(presenter.alert)
        await presenter.perform(.retry, on: first.id)?.value
        #expect(runs.pages.sorted() == [1, 2, 3])
        let second = try #require(presenter.alert)
        #expect(second.id != first.id)
        #expect(second.title == first.title)
        #expect(presenter.waitingAlerts.isEmpty)

        await presenter.perform(.retry, on: second.id)?.value
        #expect(runs.pages.sorted() == [1, 1, 2, 3, 3])
        #expect(presenter.alert != nil)
        // Choosing on an alert that has gone does nothing.
        #expect(presenter.perform(.retry, on: first.id) == nil)
        #expect(runs.pages.count == 5)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("a retry that throws another error is classified as the networking stack's; a cancelled one shows nothing")
    func otherErrors() async throws {
        let presenter = makePresenter()
        presenter.present(offline, retry: { throw URLError(.timedOut) })
        presenter.present(offline, retry: { throw CancellationError() })
        let alert = try #require(presenter.alert)
        await presenter.perform(.retry, on: alert.id)?.value
        let again = try #require(presenter.alert)
        #expect(again.category == .timedOut)
        #expect(again.error as? StudyGroupError == .transport(TransportFailure(URLError(.timedOut))))
        #expect(presenter.waitingAlerts.isEmpty)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("requests rate-limited together get one alert, whatever wait each was given")
    func rateLimitedTogether() throws {
        let presenter = makePresenter()
        for seconds in [29, 30, 31] {
            presenter.present(StudyGroupError.http(HTTPFailure(status: .tooManyRequests, headerFields: [.retryAfter: "\(seconds)"])))
        }
        presenter.present(StudyGroupError.server(.general(.rateLimited, message: nil)))
        let alert = try #require(presenter.alert)
        #expect(alert.message == "Too many requests. Please wait a moment and try again.\nYou can try again in 29 seconds.")
        #expect(alert.retryAfter == .seconds(29))
        #expect(presenter.waitingAlerts.isEmpty)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("one alert at a time; the rest wait in order; stale dismissals are ignored")
    func queue() throws {
        let presenter = makePresenter()
        presenter.present(offline)
        presenter.present(serverFailure)
        presenter.present(unauthorized)
        presenter.present(serverFailure)
        let first = try #require(presenter.alert)
        #expect(first.category == .offline)
        #expect(presenter.waitingAlerts.map(\.category) == [.serverFailure, .unauthorized])

        presenter.perform(.cancel, on: first.id)
        // SwiftUI sets its binding to false after the button ran: that must not close the next alert.
        presenter.dismiss(first.id)
        let second = try #require(presenter.alert)
        #expect(second.category == .serverFailure)
        presenter.dismiss(second.id)
        #expect(presenter.alert?.category == .unauthorized)
        #expect(presenter.waitingAlerts.isEmpty)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("cancelled requests show nothing")
    func cancelled() {
        let presenter = makePresenter()
        presenter.present(StudyGroupError.transport(TransportFailure(CancellationError())), retry: {})
        presenter.present(StudyGroupError.transport(TransportFailure(URLError(.cancelled))))
        #expect(presenter.alert == nil)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("sign-in and app actions are published as routes, in order")
    func routes() async throws {
        let presenter = makePresenter()
        var routes = presenter.routes.makeAsyncIterator()
        presenter.present(unauthorized, retry: {})
        presenter.present(offline)
        let signIn = try #require(presenter.alert)
        #expect(signIn.actions.map(\.title) == ["Sign In", "Cancel"])
        #expect(presenter.perform(.signIn, on: signIn.id) == nil)
        let settings = try #require(presenter.alert)
        presenter.perform("openSettings", on: settings.id)
        #expect(presenter.alert == nil)

        #expect(await routes.next() == .signIn(from: signIn))
        #expect(await routes.next() == .appAction(settings.actions[1], from: settings))
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("every observer of routes hears every route; a route nobody observes is kept by nobody")
    func routesReachEveryObserver() async throws {
        let presenter = makePresenter()
        presenter.present(unauthorized, retry: {})
        let unobserved = try #require(presenter.alert)
        presenter.perform(.signIn, on: unobserved.id)
        #expect(presenter.routeSubscriptions == 0)
        var (one, two) = (presenter.routes.makeAsyncIterator(), presenter.routes.makeAsyncIterator())
        #expect(presenter.routeSubscriptions == 2)
        presenter.present(unauthorized, retry: {})
        let signIn = try #require(presenter.alert)
        presenter.perform(.signIn, on: signIn.id)
        // Each hears the route published while it observed, not the one before.
        #expect(await one.next() == .signIn(from: signIn))
        #expect(await two.next() == .signIn(from: signIn))
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("operations of closed alerts are let go")
    func releasesOperations() throws {
        let presenter = makePresenter()
        weak var probe: Probe?
        do {
            let operationProbe = Probe()
            probe = operationProbe
            presenter.present(offline, retry: { _ = operationProbe })
        }
        #expect(probe != nil)
        let alert = try #require(presenter.alert)
        presenter.perform(.cancel, on: alert.id)
        #expect(probe == nil)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("observers are notified when an alert is shown, queued and closed")
    func observation() throws {
        let presenter = makePresenter()
        func tracking(_ read: @escaping () -> Void) -> Flag {
            let flag = Flag()
            withObservationTracking(read, onChange: flag.raise)
            return flag
        }
        let shown = tracking { _ = presenter.alert }
        presenter.present(offline)
        #expect(shown.isRaised)

        let queued = tracking { _ = presenter.waitingAlerts }
        presenter.present(serverFailure)
        #expect(queued.isRaised)

        let closed = tracking { _ = presenter.alert }
        let alert = try #require(presenter.alert)
        presenter.perform(.cancel, on: alert.id)
        #expect(closed.isRaised)
        #expect(presenter.alert?.category == .serverFailure)

        let untouched = tracking { _ = presenter.alert }
        presenter.locale = Locale(identifier: "ko")
        #expect(!untouched.isRaised)
    }
}
