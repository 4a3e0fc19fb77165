import AsyncHTTPClient
import BackstopJSON
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Each of BackstopProxy's scenarios over loopback, chosen by header or for the whole proxy,
/// its waits on a test clock.
@Suite("BackstopProxy scenarios", .timeLimit(.minutes(1)))
struct ProxyFaultTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Each byte dirt changes the upstream's JSON bytes, and Backstop's decoder still reads them", arguments: ByteDirt.allCases)
    func byteDirt(dirt: ByteDirt) async throws {
        try await withBackend { _, upstream in
            try await withProxy(upstream: upstream) { _, url in
                let body = #"{"name":"café","price":12.5}"#
                let clean = try await ProxyHTTP.fetch(
                    url, "/b/echo", method: .POST, headers: [("Content-Type", "application/json")], body: body)
                let dirty = try await ProxyHTTP.fetch(
                    url, "/b/echo", method: .POST, headers: [("Content-Type", "application/json"), ("Backstop-Scenario", dirt.rawValue)],
                    body: body)
                #expect(dirty.status == 200)
                #expect(Array(dirty.body) == dirt.applied(to: Array(clean.body)))
                #expect(dirty.body != clean.body)
                #expect(dirty.header("Content-Length") == String(dirty.body.count))
                struct Echoed: Decodable { let data: Payload }
                struct Payload: Decodable { let method: String }
                #expect(try ResilientJSONDecoder().decode(Echoed.self, from: dirty.body).data.method == "POST")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("--scenario applies to requests without the header; Backstop-Scenario: none opts out")
    func wholeProxyScenario() async throws {
        try await withBackend { _, upstream in
            try await withProxy(upstream: upstream, { $0.scenario = .dirt(.byteOrderMark) }) { _, url in
                let direct = try await ProxyHTTP.fetch(upstream, "/b/products/1")
                let dirty = try await ProxyHTTP.fetch(url, "/b/products/1")
                #expect(Array(dirty.body) == [0xEF, 0xBB, 0xBF] + Array(direct.body))
                let clean = try await ProxyHTTP.fetch(url, "/b/products/1", headers: [("Backstop-Scenario", "none")])
                #expect(clean.body == direct.body)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("latency holds the answer until the delay has passed on the proxy's clock")
    func latency() async throws {
        let clock = TestClock()
        try await withBackend { _, upstream in
            try await withProxy(upstream: upstream, clock: clock) { proxy, url in
                let answer = Task {
                    try await ProxyHTTP.fetch(url, "/b/products/1", headers: [("Backstop-Scenario", "latency; ms=2000; jitter=500")])
                }
                _ = try await proxy.requestLog.arrival()
                await clock.advance(by: .milliseconds(2501))
                let fetched = try await answer.value
                #expect(fetched.status == 200)
                #expect(fetched.value(at: "data.id") as? Int == 1)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("bandwidth sends a tenth of a second's worth, then the rest as the proxy's clock moves")
    func bandwidth() async throws {
        let clock = TestClock()
        try await withBackend { _, upstream in
            try await withProxy(upstream: upstream, clock: clock) { _, url in
                let direct = try await ProxyHTTP.fetch(upstream, "/b/sized/5000")
                // 1 KB/s: 102 bytes a tenth of a second.
                let response = try await ProxyHTTP.client.execute(
                    ProxyHTTP.request(url, "/b/sized/5000", headers: [("Backstop-Scenario", "bandwidth; rate=1")]), timeout: .seconds(20))
                #expect(response.headers["content-length"] == [String(direct.body.count)])
                var body = response.body.makeAsyncIterator()
                let first = try #require(try await body.next())
                #expect(first.readableBytes <= 102)
                var received = Array(buffer: first)
                await clock.advance(by: .seconds(10))
                while let more = try await body.next() { received += Array(buffer: more) }
                #expect(received == Array(direct.body))
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("reset forwards the request, then breaks the client's connection instead of answering")
    func reset() async throws {
        try await withBackend { backend, upstream in
            try await withProxy(upstream: upstream) { _, url in
                await #expect(throws: (any Error).self) {
                    _ = try await ProxyHTTP.fetch(url, "/b/products", headers: [("Backstop-Scenario", "reset")])
                }
                await #expect(throws: (any Error).self) {
                    _ = try await ProxyHTTP.fetch(url, "/b/products", headers: [("Backstop-Scenario", "reset; after=10")])
                }
                #expect(await backend.requestLog.entries.count == 2)
                // The proxy is still well.
                let after = try await ProxyHTTP.fetch(url, "/b/products")
                #expect(after.status == 200)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("timeout forwards nothing and closes the connection once its time passes on the proxy's clock")
    func timeout() async throws {
        let clock = TestClock()
        try await withBackend { backend, upstream in
            try await withProxy(upstream: upstream, clock: clock) { proxy, url in
                let answer = Task { try await ProxyHTTP.fetch(url, "/b/products", headers: [("Backstop-Scenario", "timeout; ms=5000")]) }
                _ = try await proxy.requestLog.arrival()
                await clock.advance(by: .milliseconds(5001))
                await #expect(throws: (any Error).self) { _ = try await answer.value }
                #expect(await backend.requestLog.entries.isEmpty)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A timeout with no end ends when the proxy stops, without an answer")
    func timeoutEndsAtShutdown() async throws {
        let answer = try await withBackend { _, upstream in
            try await withProxy(upstream: upstream) { proxy, url in
                let answer = Task { try? await ProxyHTTP.fetch(url, "/b/products", headers: [("Backstop-Scenario", "timeout")]) }
                _ = try await proxy.requestLog.arrival()
                return answer
            }
        }
        #expect(await answer.value == nil)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("slow-close sends the whole answer and holds back its end until the proxy's clock moves")
    func slowClose() async throws {
        let clock = TestClock()
        try await withBackend { _, upstream in
            try await withProxy(upstream: upstream, clock: clock) { _, url in
                let direct = try await ProxyHTTP.fetch(upstream, "/b/products")
                let response = try await ProxyHTTP.client.execute(
                    ProxyHTTP.request(url, "/b/products", headers: [("Backstop-Scenario", "slow-close; ms=3000")]), timeout: .seconds(20))
                #expect(response.headers["content-length"].isEmpty)
                var body = response.body.makeAsyncIterator()
                var received: [UInt8] = []
                while received.count < direct.body.count, let more = try await body.next() { received += Array(buffer: more) }
                #expect(received == Array(direct.body))
                await clock.advance(by: .milliseconds(3001))
                #expect(try await body.next() == nil)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("http-5xx answers its status for its share of requests, drawn from the seed, without forwarding them")
    func serverErrors() async throws {
        try await withBackend { backend, upstream in
            try await withProxy(upstream: upstream, { $0.seed = 42 }) { _, url in
                let always = try await ProxyHTTP.fetch(
                    url, "/b/products", headers: [("Backstop-Scenario", "http-5xx; status=502; retryAfter=3")])
                #expect(always.status == 502)
                #expect(always.header("Retry-After") == "3")
                #expect(await backend.requestLog.entries.isEmpty)

                var statuses: [Int] = []
                for _ in 0..<20 {
                    statuses.append(
                        try await ProxyHTTP.fetch(url, "/b/products/2", headers: [("Backstop-Scenario", "http-5xx; ratio=0.5")]).status)
                }
                #expect(Set(statuses) == [200, 503])
                #expect(await backend.requestLog.entries.count == statuses.count(where: { $0 == 200 }))

                // The same seed replays the same draws on another proxy.
                try await withProxy(upstream: upstream, { $0.seed = 42 }) { _, again in
                    var replayed: [Int] = []
                    for _ in 0..<20 {
                        replayed.append(
                            try await ProxyHTTP.fetch(again, "/b/products/2", headers: [("Backstop-Scenario", "http-5xx; ratio=0.5")])
                                .status)
                    }
                    #expect(replayed == statuses)
                }
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Random faults replay from the seed, and never touch a request that names a scenario")
    func randomFaults() async throws {
        try await withBackend { _, upstream in
            func outcomes(_ url: URL) async -> [String] {
                var outcomes: [String] = []
                for index in 0..<12 {
                    do {
                        let answer = try await ProxyHTTP.fetch(url, "/b/products/\(index % 3 + 1)")
                        outcomes.append("\(answer.status) \(answer.body.base64EncodedString())")
                    } catch {
                        outcomes.append("broken")
                    }
                }
                return outcomes
            }
            let faults = RandomFaults(rate: 0.7, seed: 9)
            let first = try await withProxy(upstream: upstream, { $0.randomFaults = faults }) { _, url in await outcomes(url) }
            let second = try await withProxy(upstream: upstream, { $0.randomFaults = faults }) { _, url in await outcomes(url) }
            #expect(first == second)
            let clean = try await withProxy(upstream: upstream) { _, url in await outcomes(url) }
            #expect(first != clean)
            try await withProxy(upstream: upstream, { $0.randomFaults = RandomFaults(rate: 1, seed: 9) }) { _, url in
                let named = try await ProxyHTTP.fetch(url, "/b/products/1", headers: [("Backstop-Scenario", "none")])
                #expect(named.status == 200)
            }
        }
    }
}
