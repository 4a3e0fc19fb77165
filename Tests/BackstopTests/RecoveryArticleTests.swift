import Backstop
import BackstopTestSupport
import Foundation
import Observation
import Testing

extension RecoveryAction {
    static let openSettings = RecoveryAction("openSettings", title: "Open Settings")
    static let contactSupport = RecoveryAction("contactSupport", title: "Contact Support")
}

/// The code of the DocC article "Recovering from Errors" that compiles without SwiftUI or
/// TCA, kept compiling and run.
enum RecoveryArticle {
    typealias AppCode = Article.AppCode
    typealias StudyGroupCode = Article.StudyGroupCode
    typealias AppError = Article.AppError

    static func makeAnAlert() -> RecoveryAlert? {
        let offline = AppError<NoModuleCodes>.transport(TransportFailure(.offline))
        let alert = RecoveryPolicy.standard.alert(for: offline)
        // alert?.title == "You're Offline", alert?.actions.map(\.id) == [.retry, .cancel]
        return alert
    }

    static let recovery = RecoveryPolicy(
        catalog: .builtIn.merging(
            MessageCatalog([
                "en": ["alert.title.maintenance": "Back Soon"],
                "ko": ["alert.title.maintenance": "곧 돌아옵니다", "alert.action.openSettings": "설정 열기"],
            ])),
        overrides: [
            .code(StudyGroupCode.classNotFound): RecoveryOverride(category: .notFound),
            .code(AppCode.maintenance): RecoveryOverride(
                titleKey: "alert.title.maintenance",
                actions: [.dismiss, .contactSupport]),
            .category(.offline): RecoveryOverride(actions: [.retry, .openSettings, .cancel]),
        ])

    static func installRecovery() {
        RecoveryPolicy.standard = recovery
    }

    struct Product: Decodable, Identifiable, Equatable {
        var id: Int
        var name: String
    }

    typealias FeedError = AppError<NoModuleCodes>

    struct FeedBackend: Sendable {
        var products: @Sendable () async throws(FeedError) -> [Product]
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @MainActor
    @Observable
    final class FeedModel {
        let presenter: RecoveryPresenter
        let backend: FeedBackend
        var products: [Product] = []

        init(presenter: RecoveryPresenter, backend: FeedBackend) {
            self.presenter = presenter
            self.backend = backend
        }

        func load() async {
            do {
                try await reload()
            } catch {
                presenter.present(error, retry: { try await self.reload() })
            }
        }

        func reload() async throws(FeedError) {
            products = try await backend.products()
        }
    }

    @MainActor
    protocol Router {
        func showSignIn()
        func openSettings()
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @MainActor
    static func follow(_ presenter: RecoveryPresenter, with router: some Router) async {
        for await route in presenter.routes {
            switch route {
            case .signIn:
                router.showSignIn()
            case .appAction(let action, _) where action.id == RecoveryAction.openSettings.id:
                router.openSettings()
            case .appAction:
                break
            }
        }
    }

    struct CommonError {
        typealias Recovery = RecoveryReducer<Request>

        /// What a retry re-sends.
        enum Request: Equatable, Sendable {
            case loadFeed
            case loadProfile
        }

        struct State: Equatable {
            var recovery = Recovery.State()
        }

        enum Action: Equatable {
            /// A request failed; `retry` re-sends it.
            case failed(FeedError, retry: Request?)
            /// The alert's buttons, and its dismissal.
            case recovery(Recovery.Action)
            /// For the parent: re-send a request, or take the user elsewhere.
            case retry(Request)
            case route(RecoveryRoute)
        }

        /// The feature's logic: the next state, and the actions to send next.
        static func handle(_ action: Action, state: inout State, policy: RecoveryPolicy = .standard) -> [Action] {
            let step: Recovery.Action
            switch action {
            case .failed(let error, let retry):
                guard let alert = policy.alert(for: error) else { return [] }
                step = .raise(alert, retry: retry)
            case .recovery(let action):
                step = action
            case .retry, .route:
                return []
            }
            let (next, effect) = Recovery.reduce(state.recovery, step)
            state.recovery = next
            switch effect {
            case .none: return []
            case .retry(let requests): return requests.map(Action.retry)
            case .route(let route): return [.route(route)]
            }
        }
    }
}

@MainActor
@Suite("The recovery DocC article's code", .serialized, .englishMessages)
struct RecoveryArticleTests {
    typealias A = RecoveryArticle

    @MainActor final class Screens: RecoveryArticle.Router {
        var shown: [String] = []
        /// One element each time a screen is shown, so a test waits for the screens it expects.
        let changes: AsyncStream<Void>
        private let changed: AsyncStream<Void>.Continuation

        init() { (changes, changed) = AsyncStream<Void>.makeStream() }

        func showSignIn() { show("signIn") }
        func openSettings() { show("settings") }

        private func show(_ screen: String) {
            shown.append(screen)
            changed.yield()
        }
    }

    @MainActor final class Calls {
        var count = 0
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("make an alert with the standard policy")
    func makeAnAlert() throws {
        let alert = try #require(A.makeAnAlert())
        #expect(alert.category == .offline)
        #expect(alert.actions.map(\.id) == [.retry, .cancel])
        #expect(alert.error as? A.AppError<NoModuleCodes> == .transport(TransportFailure(.offline)))
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("the overrides of the article, installed as the standard policy")
    func overrides() throws {
        let previous = RecoveryPolicy.standard
        defer { RecoveryPolicy.standard = previous }
        A.installRecovery()
        #expect(RecoveryPolicy.standard.overrides == A.recovery.overrides)

        let maintenance = A.AppError<A.StudyGroupCode>.server(.general(.maintenance, message: nil))
        let alert = try #require(A.recovery.alert(for: maintenance, locale: Locale(identifier: "ko")))
        #expect(alert.title == "곧 돌아옵니다")
        #expect(alert.actions.map(\.title) == ["확인", "Contact Support"])
        let missing = A.AppError<A.StudyGroupCode>.server(.module(.classNotFound, message: "No such class"))
        #expect(A.recovery.alert(for: missing, locale: Locale(identifier: "en"))?.title == "Not Found")
        let offline = try #require(
            A.recovery.alert(for: A.FeedError.transport(TransportFailure(.offline)), locale: Locale(identifier: "ko")))
        #expect(offline.actions.map(\.title) == ["다시 시도", "설정 열기", "취소"])
        #expect(
            offline.terminalText == """
                오프라인
                오프라인 상태입니다. 인터넷 연결을 확인한 후 다시 시도해 주세요.
                  1. 다시 시도
                  2. 설정 열기
                  3. 취소 (cancel)
                """)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("the presenter flow: fail offline, retry, fail, retry, succeed; routes reach the router", .timeLimit(.minutes(1)))
    func presenterFlow() async throws {
        let presenter = RecoveryPresenter(policy: A.recovery, locale: Locale(identifier: "en"))
        let calls = Calls()
        let backend = A.FeedBackend { () async throws(A.FeedError) in
            await MainActor.run { calls.count += 1 }
            guard await MainActor.run(body: { calls.count }) >= 3 else { throw .transport(TransportFailure(.offline)) }
            return [A.Product(id: 1, name: "Hello")]
        }
        let model = A.FeedModel(presenter: presenter, backend: backend)
        await model.load()
        let first = try #require(presenter.alert)
        #expect(
            first.terminalText == """
                You're Offline
                You're offline. Check your internet connection and try again.
                  1. Try Again
                  2. Open Settings
                  3. Cancel (cancel)
                """)
        await presenter.perform(.retry, on: first.id)?.value
        let second = try #require(presenter.alert)
        #expect(second.id != first.id)
        await presenter.perform(.retry, on: second.id)?.value
        #expect(presenter.alert == nil)
        #expect(model.products == [A.Product(id: 1, name: "Hello")])
        #expect(calls.count == 3)

        let screens = Screens()
        var changes = screens.changes.makeAsyncIterator()
        let following = Task { await A.follow(presenter, with: screens) }
        // A route is heard by the streams open when it is published: the router's first.
        while presenter.routeSubscriptions == 0, !Task.isCancelled { await Task.yield() }
        presenter.present(A.FeedError.http(HTTPFailure(status: .unauthorized)))
        presenter.present(A.FeedError.transport(TransportFailure(.offline)))
        let signIn = try #require(presenter.alert)
        presenter.perform(.signIn, on: signIn.id)
        let offline = try #require(presenter.alert)
        presenter.perform("openSettings", on: offline.id)
        // Both routes were published while the router followed: it sees them in order.
        while screens.shown.count < 2, await changes.next() != nil {}
        following.cancel()
        #expect(screens.shown == ["signIn", "settings"])
    }

    typealias CommonError = A.CommonError
    typealias FeedError = A.FeedError

    /// The article's test of its `CommonError` feature, with the built-in messages installed.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func commonErrorMergesAndRetries() throws {
        let previous = RecoveryPolicy.standard
        defer { RecoveryPolicy.standard = previous }
        RecoveryPolicy.standard = RecoveryPolicy(catalog: .builtIn)
        var state = CommonError.State()
        let offline = FeedError.transport(TransportFailure(.offline))
        #expect(CommonError.handle(.failed(offline, retry: .loadFeed), state: &state) == [])
        #expect(CommonError.handle(.failed(offline, retry: .loadProfile), state: &state) == [])
        let alert = try #require(state.recovery.alert)
        #expect(state == CommonError.State(recovery: .init(shown: .init(alert: alert, requests: [.loadFeed, .loadProfile]))))

        let next = CommonError.handle(.recovery(.choose(.retry, on: alert.id)), state: &state)
        #expect(next == [.retry(.loadFeed), .retry(.loadProfile)])
        #expect(state == CommonError.State())
    }
}
