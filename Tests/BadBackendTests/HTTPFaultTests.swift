import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("HTTP faults and broken responses", .timeLimit(.minutes(1)))
struct HTTPFaultTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Each error status with an envelope whose code is the status times 100", arguments: Scenario.httpStatuses)
    func status(code: Int) async throws {
        try await withBackend { _, url in
            let answer = try await HTTP.fetch(url, "/scenarios/http-\(code)/b/products/1")
            #expect(answer.status == code)
            #expect(answer.value(at: "code") as? Int == code * 100)
            #expect((answer.value(at: "msg") as? String)?.isEmpty == false)
            #expect((answer.header("Retry-After") != nil) == (code == 429))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Retry-After: 1 on 429 unless told, and on 503 only when told")
    func retryAfter() async throws {
        try await withBackend { _, url in
            let answer1 = try await HTTP.fetch(url, "/scenarios/http-429/a/products")
            #expect(answer1.header("Retry-After") == "1")
            let answer2 = try await HTTP.fetch(url, "/scenarios/http-429/a/products?retryAfter=12")
            #expect(answer2.header("Retry-After") == "12")
            let answer3 = try await HTTP.fetch(url, "/scenarios/http-503/a/products?retryAfter=3")
            #expect(answer3.header("Retry-After") == "3")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A proxy's HTML page, an empty body, a truncated body and a wrong content type")
    func brokenBodies() async throws {
        try await withBackend { _, url in
            let clean = try await HTTP.fetch(url, "/b/products/1")

            let html = try await HTTP.fetch(url, "/scenarios/html-error-page/b/products/1")
            #expect(html.status == 502)
            #expect(html.header("Content-Type") == "text/html; charset=utf-8")
            #expect(html.text.hasPrefix("<!DOCTYPE html>"))

            let empty = try await HTTP.fetch(url, "/scenarios/empty-body/b/products/1")
            #expect(empty.status == 200)
            #expect(empty.body.isEmpty)
            #expect(empty.header("Content-Length") == "0")

            let truncated = try await HTTP.fetch(url, "/scenarios/truncated-body/b/products/1")
            #expect(truncated.status == 200)
            #expect(truncated.body == clean.body.prefix(clean.body.count / 2))
            #expect(truncated.json == nil)

            let mislabelled = try await HTTP.fetch(url, "/scenarios/wrong-content-type/b/products/1")
            #expect(mislabelled.body == clean.body)
            #expect(mislabelled.header("Content-Type") == "text/html; charset=utf-8")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A connection closed mid-body is a transport error, not an answer")
    func connectionClosedMidBody() async throws {
        try await withBackend { backend, url in
            await #expect(throws: URLError.self) {
                _ = try await HTTP.fetch(url, "/scenarios/connection-closed-mid-body/b/products/1")
            }
            // The server is still well and answers the next request.
            let answer4 = try await HTTP.fetch(url, "/b/products/1")
            #expect(answer4.status == 200)
            #expect(await backend.requestLog.entries.first?.scenario == .connectionClosedMidBody)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A slow answer waits for the server's clock, not the wall clock")
    func slow() async throws {
        let clock = TestClock()
        try await withBackend(.init(slowAnswerDelay: .seconds(30)), clock: clock) { backend, url in
            let answer = Task { try await HTTP.fetch(url, "/scenarios/slow/b/products/1") }
            let entries = try await backend.requestLog.entries(atLeast: 1)
            #expect(entries.first?.scenario == .slow)
            // Past the deadline taken before the request was logged: releases it however the
            // server's task and this one interleave.
            await clock.advance(by: .seconds(31))
            let fetched = try await answer.value
            #expect(fetched.status == 200)
            #expect(fetched.value(at: "data.id") as? Int == 1)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A slow answer nobody releases does not hold up a graceful stop")
    func slowAnswerEndsAtShutdown() async throws {
        let answer = try await withBackend { backend, url in
            let answer = Task { try? await HTTP.fetch(url, "/scenarios/slow/b/products/1") }
            _ = try await backend.requestLog.arrival()
            return answer
        }
        // The server has stopped; the request it dropped ends without an answer.
        #expect(await answer.value?.status != 200)
    }
}
