import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import StudyGroupsExample
import Testing

/// The example app (Examples/StudyGroups, whose own tests run it on a stub transport), run
/// against BadBackend as an app would run it.
@Suite("The sample app", .timeLimit(.minutes(1)), .englishMessages)
struct SampleAppTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func signsInRefreshesAndSavesTokensHandlesItsCodesAndShowsAlerts() async throws {
        let clock = TestClock()
        try await withBackend(clock: clock) { backend, url in
            let store = TokenStore()
            let networking = Networking(baseURL: url, store: store, transport: StreamingURLSessionTransport(), clock: clock)
            try await networking.signIn(user: "ada")
            let first = try #require(store.tokens)
            #expect(try await networking.account().name == "Ada")

            // The token expires on the server's clock: one refresh, the new pair saved, the call replayed.
            await clock.advance(by: backend.configuration.accessTokenLifetime + .seconds(1))
            #expect(try await networking.account().id == 1)
            #expect(store.tokens != first)
            #expect(networking.session.credential == store.tokens)

            // The feature's own codes reach its switch; the rest goes to the presenter.
            let presenter = await RecoveryPresenter(locale: Locale(identifier: "en"))
            let load = { (path: String) in await GroupScreen.load(path, networking: networking, presenter: presenter) }
            #expect(await load("b/study-groups") == .groups(Self.groups))
            #expect(await load("scenarios/numbers-as-strings/b/study-groups") == .groups(Self.groups))
            #expect(await load("scenarios/wrong-team-code/b/study-groups") == .teamCodeHint)
            #expect(await load("scenarios/class-not-found/b/study-groups") == .classGone)
            #expect(await presenter.alert == nil)

            // Maintenance: one app-wide event, and an alert for the screen that asked.
            var events = networking.generalCodes.events.makeAsyncIterator()
            #expect(await load("scenarios/maintenance/b/study-groups") == .alert)
            #expect(await events.next() == .maintenance)
            #expect(await presenter.alert?.category == .unavailable)
        }
    }

    /// The study groups BadBackend lists, as the example decodes them.
    static let groups = [
        StudyGroupsExample.StudyGroup(id: 7, name: "Calculus B", teamCode: "K7Q2", memberCount: 3),
        StudyGroupsExample.StudyGroup(id: 8, name: "Linear Algebra", teamCode: "M3X8", memberCount: 2),
        StudyGroupsExample.StudyGroup(id: 9, name: "Organic Chemistry", teamCode: "R5C9", memberCount: 4),
    ]

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func showsTheListAsSavedWithANoticeOnceTheServerIsStopped() async throws {
        let presenter = await RecoveryPresenter(locale: Locale(identifier: "en"))
        // Retries wait on an immediate clock: once the server is gone, the call fails at once.
        let (networking, before, after) = try await withBackend { _, url in
            let networking = Networking(
                baseURL: url, store: TokenStore(), transport: StreamingURLSessionTransport(), clock: ImmediateClock())
            try await networking.signIn(user: "ada")
            let before = Date()
            #expect(await GroupScreen.load("b/study-groups", networking: networking, presenter: presenter) == .groups(Self.groups))
            return (networking, before, Date())
        }

        // The server has stopped: nothing listens at its address any more.
        let screen = await GroupScreen.load("b/study-groups", networking: networking, presenter: presenter)
        guard case .savedGroups(let groups, let notice) = screen else {
            Issue.record("expected the saved list, got \(screen)")
            return
        }
        #expect(groups == Self.groups)
        #expect((before...after).contains(notice.savedAt))
        // Saved today: the time alone, on a 24-hour clock in the device's time zone.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm"
        #expect(notice.message == "Showing what was saved at \(formatter.string(from: notice.savedAt)).")
        #expect(await presenter.alert == nil)
    }
}
