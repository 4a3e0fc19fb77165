import BackstopTestSupport
import Foundation
import Testing

@testable import BadBackend

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("The request log's bounds", .timeLimit(.minutes(1)))
struct RequestLogBoundsTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The log keeps the last requests and each body's first bytes; the echo still answers the whole body")
    func lastRequestsAndBodyPrefixes() async throws {
        try await withBackend(.init(maximumLoggedRequests: 3, maximumLoggedBodyBytes: 10)) { backend, url in
            let body = #"{"text":""# + String(repeating: "x", count: 1_000) + #""}"#
            for index in 1...5 {
                let answer = try await HTTP.fetch(url, "/b/echo/\(index)", method: "POST", json: body)
                #expect(answer.value(at: "data.body.text") as? String == String(repeating: "x", count: 1_000))
            }
            let log = backend.requestLog
            #expect(log.maximumEntries == 3)
            #expect(log.maximumBodyBytes == 10)
            #expect(await log.entries.map(\.path) == ["/b/echo/3", "/b/echo/4", "/b/echo/5"])
            #expect(await log.droppedEntries == 2)
            #expect(await log.entries.map(\.body) == Array(repeating: Data(body.utf8.prefix(10)), count: 3))
            #expect(await log.entries.map(\.bodyByteCount) == Array(repeating: body.utf8.count, count: 3))
        }
    }

    @Test("Defaults: the last 1,000 requests, 64 KiB of each body, attempts for 10,000 methods and paths")
    func defaults() {
        let configuration = BadBackend.Configuration()
        #expect(configuration.maximumLoggedRequests == 1_000)
        #expect(configuration.maximumLoggedBodyBytes == 65_536)
        let log = RequestLog()
        #expect(log.maximumEntries == 1_000)
        #expect(log.maximumBodyBytes == 65_536)
        #expect(log.maximumPaths == 10_000)
    }

    @Test("Attempts are counted for the latest paths only: a forgotten path starts again at attempt 1")
    func boundedAttempts() async {
        let log = RequestLog(maximumEntries: 2, maximumBodyBytes: 4, maximumPaths: 2)
        func record(_ path: String, body: Data? = nil) async -> LoggedRequest {
            await log.record(method: "GET", path: path, query: "", credential: nil, body: body, at: .zero) { _ in nil }
        }
        #expect(await record("/a").attempt == 1)
        #expect(await record("/a").attempt == 2)
        #expect(await record("/b").attempt == 1)
        #expect(await record("/c").attempt == 1)  // /a, first seen longest ago, is forgotten
        #expect(await record("/b").attempt == 2)
        #expect(await record("/a").attempt == 1)  // and now /b, first seen longest ago, is forgotten
        #expect(await log.firstArrival(method: "GET", path: "/b") == nil)
        #expect(await log.firstArrival(method: "GET", path: "/c") == .zero)
        let whole = await record("/b", body: Data("0123456789".utf8))
        #expect(whole.attempt == 1)
        #expect(whole.body == Data("0123456789".utf8))
        #expect(await log.entries.last?.body == Data("0123".utf8))
        #expect(await log.entries.last?.bodyByteCount == 10)
        #expect(await log.entries.count == 2)
        #expect(await log.droppedEntries == 5)
    }

    @Test("Once full, the log keeps exactly the last requests, oldest first, through many batches of forgotten ones")
    func slidingWindow() async {
        var window = SlidingWindow<Int>(capacity: 4)
        var fallen: [Int] = []
        for number in 1...25 {
            if let out = window.append(number) { fallen.append(out) }
            #expect(Array(window.elements) == Array(max(1, number - 3)...number))
            #expect(window.count == min(number, 4))
        }
        #expect(fallen == Array(1...21))

        let log = RequestLog(maximumEntries: 1_000, maximumPaths: 1_500)
        for index in 1...3_500 {
            _ = await log.record(method: "GET", path: "/items/\(index % 2_000)", query: "", credential: nil, body: nil, at: .zero) { _ in
                nil
            }
        }
        let entries = await log.entries
        #expect(entries.count == 1_000)
        #expect(entries.first?.path == "/items/\(2_501 % 2_000)")
        #expect(entries.last?.path == "/items/\(3_500 % 2_000)")
        #expect(await log.droppedEntries == 2_500)
        // /items/1500 came first at request 1,500, and again at 3,500, after 1,500 newer paths.
        #expect(entries.last?.attempt == 1)
    }
}
