import BackstopTestSupport
import BadBackend
import Foundation
import Testing

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("The echo and sized payloads", .timeLimit(.minutes(1)))
struct EchoAndSizeTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The echo answers the request's method, path, headers and JSON body, and logs the body's bytes")
    func echo() async throws {
        try await withBackend { backend, url in
            let body = #"{"id":3,"name":"Três"}"#
            let answer = try await HTTP.fetch(url, "/b/echo/items/3?q=1", method: "PUT", json: body)
            #expect(answer.status == 200)
            #expect(answer.value(at: "code") as? Int == 200)
            #expect(answer.value(at: "data.method") as? String == "PUT")
            #expect(answer.value(at: "data.path") as? String == "/b/echo/items/3?q=1")
            #expect(answer.value(at: "data.headers.content-type") as? String == "application/json")
            #expect(answer.value(at: "data.body.id") as? Int == 3)
            #expect(answer.value(at: "data.body.name") as? String == "Três")
            let log = await backend.requestLog.entries
            #expect(
                log == [
                    LoggedRequest(
                        method: "PUT", path: "/b/echo/items/3?q=1", credential: nil, attempt: 1, scenario: nil,
                        body: Data(body.utf8))
                ])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "The echo takes any method and credential; a body that is not JSON comes back as text, none as null",
        arguments: ["GET", "POST", "PATCH", "DELETE"])
    func echoAnyRequest(method: String) async throws {
        try await withBackend { _, url in
            let plain = try await HTTP.fetch(url, "/a/echo", method: method, token: "not-a-token")
            #expect(plain.status == 200)
            #expect(plain.value(at: "result.data.method") as? String == method)
            #expect(plain.value(at: "result.data.headers.authorization") as? String == "Bearer not-a-token")
            #expect(plain.value(at: "result.data.body") is NSNull)
            guard method != "GET" else { return }
            let text = try await HTTP.fetch(url, "/c/echo", method: method, json: "not JSON")
            #expect(text.value(at: "result.data.body") as? String == "not JSON")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Scenarios apply to the echo, and every attempt's body is logged")
    func echoWithScenario() async throws {
        try await withBackend { backend, url in
            for _ in 0..<3 {
                _ = try await HTTP.fetch(url, "/scenarios/http-503/b/echo?failures=2", method: "POST", json: #"{"n":1}"#)
            }
            let log = await backend.requestLog.entries
            #expect(log.map(\.scenario) == [.httpStatus(503), .httpStatus(503), nil])
            #expect(log.map(\.body) == Array(repeating: Data(#"{"n":1}"#.utf8), count: 3))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A sized payload has exactly the bytes asked for", arguments: [0, 10, 5_000])
    func sized(bytes: Int) async throws {
        try await withBackend { _, url in
            let answer = try await HTTP.fetch(url, "/b/sized/\(bytes)")
            #expect(answer.status == 200)
            #expect(answer.value(at: "data") as? String == String(repeating: "a", count: bytes))
            #expect(answer.body.count == #"{"code":200,"msg":"OK","data":""}"#.utf8.count + bytes)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A size that is not a whole number from 0 to 16 MiB is a 404 that says why", arguments: ["-1", "16777217", "lots"])
    func sizedOutOfRange(bytes: String) async throws {
        try await withBackend { _, url in
            let answer = try await HTTP.fetch(url, "/b/sized/\(bytes)")
            #expect(answer.status == 404)
            #expect((answer.value(at: "error") as? String)?.contains("0 to 16777216") == true)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A request body over 1 MiB is a 413, not read into the log")
    func bodyTooLarge() async throws {
        try await withBackend { backend, url in
            let answer = try await HTTP.fetch(url, "/b/echo", method: "POST", json: "\"" + String(repeating: "a", count: 1 << 20) + "\"")
            #expect(answer.status == 413)
            #expect(await backend.requestLog.entries.isEmpty)
        }
    }
}
