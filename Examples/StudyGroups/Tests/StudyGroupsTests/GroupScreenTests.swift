import Backstop
import BackstopTesting
import Foundation
import StudyGroups
import Testing

// The study-group feature's switch and the alerts, on canned answers.
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
        transport.stub(.get, "b/study-groups/7", answer)
        return await GroupScreen.load("b/study-groups/7", networking: networking, presenter: presenter)
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
            .json(#"{"code": 200, "msg": "OK", "data": {"id": "7", "name": "Calculus B", "teamCode": "K7Q2", "memberCount": "3"}}"#))
        #expect(screen == .group(StudyGroup(id: 7, name: "Calculus B", teamCode: "K7Q2", memberCount: 3)))
        let drift = networking.drift.report().entries
        #expect(Set(drift.map(\.path)) == ["$.data.id", "$.data.memberCount"])
        #expect(drift.allSatisfy { $0.operation == "GET b/study-groups/{id}" })
    }
}
