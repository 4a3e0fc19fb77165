import Backstop
import BackstopTestSupport
import Foundation
import Testing

@Suite("The recovery reducing function", .englishMessages)
struct RecoveryReducerTests {
    enum Request: Equatable, Sendable {
        case loadFeed(page: Int)
        case loadProfile
    }

    typealias Recovery = RecoveryReducer<Request>

    static let policy = RecoveryPolicy(
        catalog: .builtIn,
        overrides: [
            .category(.offline): RecoveryOverride(actions: [.retry, .openSettings, .cancel])
        ])
    let offline = Self.alert(.transport(TransportFailure(.offline)))
    let offlineAgain = Self.alert(.transport(TransportFailure(.offline)))
    let serverFailure = Self.alert(.http(HTTPFailure(status: .internalServerError)))
    let signIn = Self.alert(.http(HTTPFailure(status: .unauthorized)))

    static func alert(_ error: StudyGroupError) -> RecoveryAlert {
        policy.alert(for: error, locale: Locale(identifier: "en"))
            ?? RecoveryAlert(
                category: .unknown, title: "unexpected", message: "", actions: [], error: error)
    }

    /// Runs `actions` from `state`, returning the last state and every effect.
    func run(_ actions: [Recovery.Action], from state: Recovery.State = .init()) -> (Recovery.State, [Recovery.Effect]) {
        var state = state
        var effects: [Recovery.Effect] = []
        for action in actions {
            let (next, effect) = Recovery.reduce(state, action)
            state = next
            effects.append(effect)
        }
        return (state, effects)
    }

    @Test("the first alert is shown; different ones wait in order")
    func queue() {
        let (state, effects) = run([.raise(offline, retry: .loadProfile), .raise(serverFailure, retry: nil), .raise(signIn, retry: nil)])
        #expect(
            state
                == Recovery.State(
                    shown: .init(alert: offline, requests: [.loadProfile]),
                    waiting: [.init(alert: serverFailure), .init(alert: signIn)]))
        #expect(state.alert == offline)
        #expect(effects == [.none, .none, .none])
    }

    @Test("identical alerts raised together merge, each request once; retry re-sends them all and shows the next")
    func mergeAndRetry() {
        let (merged, _) = run([
            .raise(serverFailure, retry: nil),
            .raise(offline, retry: .loadFeed(page: 1)),
            .raise(offlineAgain, retry: .loadFeed(page: 2)),
            .raise(offlineAgain, retry: .loadFeed(page: 1)),
            .raise(offlineAgain, retry: .loadProfile),
        ])
        #expect(
            merged
                == Recovery.State(
                    shown: .init(alert: serverFailure),
                    waiting: [.init(alert: offline, requests: [.loadFeed(page: 1), .loadFeed(page: 2), .loadProfile])]))

        let (shownMerged, _) = run([.raise(offline, retry: .loadProfile), .raise(offlineAgain, retry: .loadFeed(page: 3))])
        #expect(shownMerged.shown == .init(alert: offline, requests: [.loadProfile, .loadFeed(page: 3)]))
        #expect(shownMerged.waiting.isEmpty)

        let (next, effects) = run([.choose(.cancel, on: serverFailure.id), .choose(.retry, on: offline.id)], from: merged)
        #expect(effects == [.none, .retry([.loadFeed(page: 1), .loadFeed(page: 2), .loadProfile])])
        #expect(next == Recovery.State())
    }

    @Test("a retry that fails again is a fresh alert, and nothing retries on its own")
    func failsAgain() {
        let (afterRetry, effects) = run([.raise(offline, retry: .loadProfile), .choose(.retry, on: offline.id)])
        #expect(effects == [.none, .retry([.loadProfile])])
        let (again, more) = run([.raise(offlineAgain, retry: .loadProfile)], from: afterRetry)
        #expect(again.alert == offlineAgain)
        #expect(again.alert?.id != offline.id)
        #expect(more == [.none])
        // The old alert's buttons do nothing to the new one.
        #expect(Recovery.reduce(again, .choose(.retry, on: offline.id)) == (again, .none))
    }

    @Test("sign-in and app-defined actions route; cancel, dismiss and confirm only close")
    func routes() {
        let (_, signInEffects) = run([.raise(signIn, retry: .loadProfile), .choose(.signIn, on: signIn.id)])
        #expect(signInEffects.last == .route(.signIn(from: signIn)))

        let (_, appEffects) = run([.raise(offline, retry: nil), .choose("openSettings", on: offline.id)])
        #expect(appEffects.last == .route(.appAction(offline.actions[1], from: offline)))

        for action in [RecoveryAction.ID.cancel] {
            let (state, effects) = run([.raise(offline, retry: .loadProfile), .raise(signIn, retry: nil), .choose(action, on: offline.id)])
            #expect(effects.last == Recovery.Effect.none)
            #expect(state == Recovery.State(shown: .init(alert: signIn)))
        }
        let confirming = RecoveryAlert(
            category: .rejectedInput, title: "t", message: "m", actions: [.confirm, .dismiss],
            error: StudyGroupError.server(.module(.wrongTeamCode, message: nil)))
        for action in [RecoveryAction.ID.confirm, .dismiss] {
            let (state, effects) = run([.raise(confirming, retry: .loadProfile), .choose(action, on: confirming.id)])
            #expect(effects.last == Recovery.Effect.none)
            #expect(state == Recovery.State())
        }
    }

    @Test("retry with nothing to re-send closes the alert with no effect")
    func retryWithoutRequests() {
        let (state, effects) = run([.raise(offline, retry: nil), .choose(.retry, on: offline.id)])
        #expect(state == Recovery.State())
        #expect(effects.last == Recovery.Effect.none)
    }

    @Test("choices for another alert, or actions the alert lacks, are ignored; dismiss closes the shown one")
    func ignored() {
        let (state, _) = run([.raise(offline, retry: .loadProfile), .raise(serverFailure, retry: nil)])
        #expect(Recovery.reduce(state, .choose(.retry, on: serverFailure.id)) == (state, .none))
        #expect(Recovery.reduce(state, .choose(.signIn, on: offline.id)) == (state, .none))
        #expect(Recovery.reduce(state, .dismiss(serverFailure.id)) == (state, .none))
        let (dismissed, effect) = Recovery.reduce(state, .dismiss(offline.id))
        #expect(dismissed == Recovery.State(shown: .init(alert: serverFailure)))
        #expect(effect == .none)
    }

    @Test("cancelled alerts are never shown")
    func cancelled() {
        let cancelled = RecoveryAlert(
            category: .cancelled, title: "t", message: "m", actions: [.dismiss],
            error: StudyGroupError.transport(TransportFailure(.cancelled)))
        #expect(Recovery.reduce(Recovery.State(), .raise(cancelled, retry: .loadProfile)) == (Recovery.State(), .none))
    }

    @Test("alerts are equal only with the same identity, content and error")
    func alertEquality() {
        #expect(offline != offlineAgain)
        #expect(offline == offline)
        var copy = offline
        copy.message = "other"
        #expect(copy != offline)
        let sameButError = RecoveryAlert(
            id: offline.id, category: offline.category, title: offline.title, message: offline.message,
            actions: offline.actions, error: StudyGroupError.client(ClientFailure(.noNetwork)))
        #expect(sameButError != offline)
        #expect(sameButError.error as? StudyGroupError == .client(ClientFailure(.noNetwork)))
    }
}
