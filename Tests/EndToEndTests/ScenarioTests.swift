import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import Testing

/// The real client, on each transport, against BadBackend over loopback: every scenario the
/// server offers, the payload or the exact error, the repairs and the alert.
@Suite("End to end", .timeLimit(.minutes(1)), .englishMessages)
struct ScenarioTests {
    /// Every scenario on every transport.
    static let cases = Scenario.all.flatMap { scenario in TransportKind.allCases.map { (scenario, $0) } }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Each scenario, once, without retries", arguments: cases)
    func scenario(_ scenario: Scenario, _ transport: TransportKind) async throws {
        let serverClock = TestClock()
        try await withBackend(clock: serverClock) { backend, url in
            let client = makeClient(url, transport)
            let endpoint = Endpoint<StudyGroup, StudyGroupCode>(.get, "scenarios/\(scenario.name)/b/study-groups/7")
            let call = Task { () -> Result<APIResponse<StudyGroup>, StudyGroupError> in
                do throws(StudyGroupError) { return .success(try await client.response(for: endpoint)) } catch { return .failure(error) }
            }
            if scenario == .slow || scenario == .burst {
                // The answer waits on the server's clock, from before the request was logged. Past
                // its deadline, not onto it: a test clock keeps waiting a sleep that starts at its deadline.
                _ = try await backend.requestLog.entries(atLeast: 1)
                await serverClock.advance(by: backend.configuration.slowAnswerDelay + .seconds(1))
            }
            let outcome = Outcome(await call.value)
            #expect(outcome == Outcome.expected(for: scenario))
            let log = await backend.requestLog.entries
            #expect(
                log == [
                    LoggedRequest(
                        method: "GET", path: "/scenarios/\(scenario.name)/b/study-groups/7", credential: nil,
                        attempt: 1, scenario: scenario)
                ])
        }
    }

    /// Each style's success and failure: C's failure moves the message out of its shape.
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Envelopes A, B and C, succeeding and failing",
        arguments: EnvelopeStyle.allCases.flatMap { style in TransportKind.allCases.map { (style, $0) } })
    func envelopes(_ style: EnvelopeStyle, _ transport: TransportKind) async throws {
        try await withBackend { _, url in
            let client = makeClient(url, transport, contract: .style(style))
            let group = try await client.send(Endpoint<StudyGroup, StudyGroupCode>(.get, "\(style)/study-groups/7"))
            #expect(group == .seven)
            await #expect(throws: StudyGroupError.server(.module(.wrongTeamCode, message: "Wrong team code"))) {
                try await client.send(Endpoint<StudyGroup, StudyGroupCode>(.get, "scenarios/wrong-team-code/\(style)/study-groups/7"))
            }
            await #expect(throws: StudyGroupError.server(.general(.maintenance, message: "Down for maintenance"))) {
                try await client.send(Endpoint<StudyGroup, StudyGroupCode>(.get, "scenarios/maintenance/\(style)/study-groups/7"))
            }
        }
    }

    /// The scenarios the default retry rules retry: the second attempt gets the clean answer.
    static let retriedScenarios: [Scenario] =
        Scenario.httpStatuses.filter { [408, 429, 500, 502, 503, 504].contains($0) }.map(Scenario.httpStatus)
        + [.htmlErrorPage, .general(.rateLimited), .connectionClosedMidBody]

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "What the retry rules retry recovers on the second attempt",
        arguments: retriedScenarios.flatMap { scenario in TransportKind.allCases.map { (scenario, $0) } })
    func retried(_ scenario: Scenario, _ transport: TransportKind) async throws {
        try await withBackend { backend, url in
            let client = makeClient(
                url, transport,
                pipeline: quietPipeline {
                    $0.retry = .default
                    $0.clock = ImmediateClock()
                })
            let response = try await client.response(
                for: Endpoint<StudyGroup, StudyGroupCode>(
                    .get, "scenarios/\(scenario.name)/b/study-groups/7",
                    query: [URLQueryItem(name: "failures", value: "1")]))
            #expect(response.payload == .seven)
            #expect(response.attempts == 2)
            #expect(await backend.requestLog.entries.map(\.scenario) == [scenario, nil])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("What the rules do not retry is asked once", arguments: TransportKind.allCases)
    func notRetried(_ transport: TransportKind) async throws {
        let once = Scenario.all.filter {
            // An outage is retried, and lasts longer than the retries: its own tests cover it.
            !Self.retriedScenarios.contains($0) && $0.group != .dirtyData && $0 != .wrongContentType && $0 != .slow
                && $0 != .outage && $0 != .burst
        }
        try await withBackend { backend, url in
            let client = makeClient(
                url, transport,
                pipeline: quietPipeline {
                    $0.retry = .default
                    $0.clock = ImmediateClock()
                })
            for scenario in once {
                let endpoint = Endpoint<StudyGroup, StudyGroupCode>(.get, "scenarios/\(scenario.name)/b/study-groups/7")
                await #expect(throws: StudyGroupError.self, Comment(rawValue: scenario.name)) { try await client.send(endpoint) }
            }
            #expect(await backend.requestLog.entries.map(\.attempt) == Array(repeating: 1, count: once.count))
        }
    }
}
