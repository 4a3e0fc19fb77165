import Backstop
import BackstopTesting
import Foundation
import StudyGroups
import Testing

// The study-groups screen: the feature's switch, the alerts and the saved list, on canned answers.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct GroupScreenTests {
    let transport = StubTransport()
    let networking: Networking
    let presenter = RecoveryPresenter(locale: Locale(identifier: "en"))

    init() {
        // Signed in at an earlier launch: the session starts with the saved tokens.
        let store = TokenStore(Tokens(accessToken: "a1", refreshToken: "r1"))
        networking = Networking(baseURL: URL(string: "https://api.example.com")!, store: store, transport: transport)
    }

    func load(_ answer: StubResponse) async -> GroupScreen {
        transport.stub(.get, "b/study-groups", answer)
        return await GroupScreen.load("b/study-groups", networking: networking, presenter: presenter)
    }

    @Test func theFeaturesOwnCodesReachItsSwitch() async {
        #expect(await load(.json(#"{"code": 11210005, "msg": "Wrong team code", "data": null}"#)) == .teamCodeHint)
        #expect(await load(.json(#"{"code": 11210006, "msg": "Class not found", "data": null}"#)) == .classGone)
        #expect(presenter.alert == nil)
    }

    @Test func maintenanceIsOneEventAndAnAlert() async {
        var events = networking.generalCodes.events.makeAsyncIterator()
        #expect(await load(.json(#"{"code": 10503, "msg": "Down for maintenance", "data": null}"#)) == .alert)
        #expect(await events.next() == .maintenance)
        #expect(presenter.alert?.category == .unavailable)
    }

    @Test func anHTTPErrorIsTheUsersAlert() async {
        // A 404 is not retried; a 5xx would be, after a backoff on the pipeline's clock.
        #expect(await load(.status(.notFound)) == .alert)
        #expect(presenter.alert?.category == .notFound)
        #expect(presenter.alert?.title == "Not Found")
    }

    @Test func numbersSentAsStringsAreRepairedAndCountedAsDrift() async throws {
        let screen = await load(
            .json(
                #"{"code": 200, "msg": "OK", "data": [{"id": "7", "name": "Calculus B", "teamCode": "K7Q2", "memberCount": "3"}, "#
                    + #"{"id": "8", "name": "Linear Algebra", "teamCode": "M3X8", "memberCount": "2"}]}"#))
        #expect(screen == .groups([Self.calculus, Self.linearAlgebra]))
        let drift = networking.drift.report().entries
        #expect(Set(drift.map(\.path)) == ["$.data[*].id", "$.data[*].memberCount"])
        #expect(drift.map(\.count) == [2, 2])
        #expect(drift.allSatisfy { $0.operation == "GET b/study-groups" })
    }

    static let calculus = StudyGroup(id: 7, name: "Calculus B", teamCode: "K7Q2", memberCount: 3)
    static let linearAlgebra = StudyGroup(id: 8, name: "Linear Algebra", teamCode: "M3X8", memberCount: 2)
    static let groupsJSON =
        #"{"code": 200, "msg": "OK", "data": [{"id": 7, "name": "Calculus B", "teamCode": "K7Q2", "memberCount": 3}, "#
        + #"{"id": 8, "name": "Linear Algebra", "teamCode": "M3X8", "memberCount": 2}]}"#

    /// Loads the list once from the backend, then again when `failure` is all it answers.
    func loadThenFail(with failure: StubResponse) async -> (before: Date, after: Date, screen: GroupScreen) {
        let before = Date()
        #expect(await load(.json(Self.groupsJSON)) == .groups([Self.calculus, Self.linearAlgebra]))
        let after = Date()
        return (before, after, await load(failure))
    }

    /// "Showing what was saved at 10:42.", the time as the notice reads it: today, in the
    /// device's time zone, on a 24-hour clock.
    func notice(savedAt date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm"
        return "Showing what was saved at \(formatter.string(from: date))."
    }

    @Test func offlineShowsTheSavedListWithANoticeAndNoAlert() async throws {
        let (before, after, screen) = await loadThenFail(with: .failure(URLError(.notConnectedToInternet)))
        guard case .savedGroups(let groups, let notice) = screen else {
            Issue.record("expected the saved list, got \(screen)")
            return
        }
        #expect(groups == [Self.calculus, Self.linearAlgebra])
        #expect((before...after).contains(notice.savedAt))
        #expect(notice.message == self.notice(savedAt: notice.savedAt))
        #expect(presenter.alert == nil)
        #expect(transport.requests.map(\.path) == ["/b/study-groups", "/b/study-groups"])
    }

    @Test func maintenanceShowsTheSavedListAndStillTellsTheApp() async throws {
        var events = networking.generalCodes.events.makeAsyncIterator()
        let (_, _, screen) = await loadThenFail(with: .json(#"{"code": 10503, "msg": "Down for maintenance", "data": null}"#))
        guard case .savedGroups(let groups, let notice) = screen else {
            Issue.record("expected the saved list, got \(screen)")
            return
        }
        #expect(groups == [Self.calculus, Self.linearAlgebra])
        #expect(notice.message == self.notice(savedAt: notice.savedAt))
        #expect(await events.next() == .maintenance)
        #expect(presenter.alert == nil)
    }

    @Test func theFeaturesOwnCodeIsNeverAnsweredFromTheSavedList() async throws {
        let (_, _, screen) = await loadThenFail(with: .json(#"{"code": 11210006, "msg": "Class not found", "data": null}"#))
        #expect(screen == .classGone)
    }
}
