import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import Testing

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("The request log", .timeLimit(.minutes(1)))
struct RequestLogTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Method, path with query, credential and attempt, in arrival order")
    func entries() async throws {
        try await withBackend { backend, url in
            let tokens = try await AuthTests.signIn(url)
            _ = try await HTTP.fetch(url, "/b/products/1?lang=en", token: tokens.access)
            _ = try await HTTP.fetch(url, "/b/products/1", token: tokens.access)
            _ = try await HTTP.fetch(url, "/scenarios/http-503/a/products")
            _ = try await AuthTests.refresh(url, tokens.refresh)
            let entries = await backend.requestLog.entries
            #expect(
                entries == [
                    LoggedRequest(
                        method: "POST", path: "/b/auth/sign-in", credential: nil, attempt: 1, scenario: nil,
                        body: Data(#"{"username":"ada","password":"x"}"#.utf8)),
                    LoggedRequest(method: "GET", path: "/b/products/1?lang=en", credential: "access-1", attempt: 1, scenario: nil),
                    LoggedRequest(method: "GET", path: "/b/products/1", credential: "access-1", attempt: 2, scenario: nil),
                    LoggedRequest(
                        method: "GET", path: "/scenarios/http-503/a/products", credential: nil, attempt: 1, scenario: .httpStatus(503)),
                    LoggedRequest(
                        method: "POST", path: "/b/auth/refresh", credential: "refresh-1", attempt: 1, scenario: nil,
                        body: Data(#"{"refreshToken":"refresh-1"}"#.utf8)),
                ])
            #expect(entries[3].description == "GET /scenarios/http-503/a/products attempt 1 scenario http-503")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Parallel requests are all logged, and attempts count up without gaps")
    func parallel() async throws {
        try await withBackend { backend, url in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await HTTP.fetch(url, "/b/products").status } }
                for try await status in group { #expect(status == 200) }
            }
            let entries = try await backend.requestLog.entries(atLeast: 20)
            #expect(entries.map(\.attempt).sorted() == Array(1...20))
        }
    }

    @Test("A wait for entries that never come ends when its task is cancelled, saying so")
    func cancelledWait() async {
        let log = RequestLog()
        let wait = Task { () async throws(RequestLog.NotArrived) -> [LoggedRequest] in try await log.entries(atLeast: 5) }
        wait.cancel()
        let error = await #expect(throws: RequestLog.NotArrived.self) { try await wait.value }
        #expect(error?.description == "fewer than 5 requests: the wait was cancelled; the log has 0: []")
    }

    @Test("A wait for entries that never come ends after its time, saying so")
    func boundedWait() async {
        let log = RequestLog()
        let error = await #expect(throws: RequestLog.NotArrived.self) { try await log.entries(atLeast: 1, within: .milliseconds(1)) }
        #expect(error?.description == "fewer than 1 request: none arrived within 0.001 seconds; the log has 0: []")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An arrival is awaited: the first request that matches, whether it came before the wait or after")
    func arrival() async throws {
        let clock = TestClock()
        try await withBackend(.init(slowAnswerDelay: .seconds(30)), clock: clock) { backend, url in
            _ = try await HTTP.fetch(url, "/b/products/1")
            let earlier = try await backend.requestLog.arrival()
            #expect(earlier.path == "/b/products/1")
            let slow = Task { try await HTTP.fetch(url, "/scenarios/slow/b/products/2") }
            let arrived = try await backend.requestLog.arrival(where: { $0.scenario == .slow })
            #expect(
                arrived
                    == LoggedRequest(
                        method: "GET", path: "/scenarios/slow/b/products/2", credential: nil, attempt: 1,
                        scenario: .slow))
            // Past the deadline, not onto it: a test clock keeps waiting a sleep that starts at its deadline.
            await clock.advance(by: .seconds(31))
            #expect(try await slow.value.status == 200)
        }
    }

    @Test("A wait for an arrival that never comes is bounded: it throws, naming what did arrive")
    func arrivalTimesOut() async {
        let log = RequestLog()
        await #expect(throws: RequestLog.NotArrived.self) { try await log.arrival(within: .zero) }
        let wait = Task { try await log.arrival() }
        wait.cancel()
        let error = await #expect(throws: RequestLog.NotArrived.self) { try await wait.value }
        #expect(error?.description.contains("cancelled") == true)
    }
}
