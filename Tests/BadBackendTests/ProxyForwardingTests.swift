import AsyncHTTPClient
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import HTTPTypes
import Hummingbird
import InMemoryLogging
import Logging
import NIOCore
import NIOHTTP1
import Testing

/// BackstopProxy in front of a BadBackend (or an upstream of the test's own) over loopback:
/// what it forwards, what it passes back, and what it answers itself.
@Suite("BackstopProxy forwarding", .timeLimit(.minutes(1)))
struct ProxyForwardingTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Method, path, query, headers and body pass as sent; Backstop-Scenario and hop-by-hop headers stay behind")
    func forwardsAsSent() async throws {
        try await withBackend { backend, upstream in
            try await withProxy(upstream: upstream) { _, url in
                let answer = try await ProxyHTTP.fetch(
                    url, "/b/echo/orders?page=2&sort=new", method: .POST,
                    headers: [
                        ("X-Custom", "one"), ("Accept", "application/json"), ("Content-Type", "application/json"),
                        ("Backstop-Scenario", "none"), ("Connection", "keep-alive, X-Hop"), ("X-Hop", "only-to-the-proxy"),
                        ("Keep-Alive", "timeout=5"),
                    ],
                    body: #"{"item":7}"#)
                #expect(answer.status == 200)
                #expect(answer.value(at: "data.method") as? String == "POST")
                #expect(answer.value(at: "data.path") as? String == "/b/echo/orders?page=2&sort=new")
                #expect(answer.value(at: "data.body.item") as? Int == 7)
                let headers = try #require(answer.value(at: "data.headers") as? [String: String])
                #expect(headers["x-custom"] == "one")
                #expect(headers["accept"] == "application/json")
                #expect(headers["content-type"] == "application/json")
                #expect(headers["content-length"] == "10")
                #expect(headers["backstop-scenario"] == nil)
                #expect(headers["x-hop"] == nil)
                #expect(headers["keep-alive"] == nil)
                #expect(await backend.requestLog.entries.map(\.path) == ["/b/echo/orders?page=2&sort=new"])
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The upstream's status, headers and body come back as sent, on both transports", arguments: TransportKind.allCases)
    func passesBack(transport: TransportKind) async throws {
        try await withBackend { _, upstream in
            try await withProxy(upstream: upstream) { _, url in
                let direct = try await ProxyHTTP.fetch(upstream, "/scenarios/http-429/b/products?retryAfter=7")
                let proxied: Fetched
                switch transport {
                case .urlSession: proxied = try await HTTP.fetch(url, "/scenarios/http-429/b/products?retryAfter=7")
                case .asyncHTTPClient: proxied = try await ProxyHTTP.fetch(url, "/scenarios/http-429/b/products?retryAfter=7")
                }
                #expect(proxied.status == 429)
                #expect(proxied.header("Retry-After") == "7")
                #expect(proxied.header("Content-Type") == direct.header("Content-Type"))
                #expect(proxied.body == direct.body)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Host is the upstream's; a redirect comes back to the client, not followed; each cookie the upstream sets comes back; HEAD keeps its length"
    )
    func redirectsAndCookies() async throws {
        let router = Router()
        router.get("/old") { _, _ in Response(status: .found, headers: [.location: "/new"]) }
        router.get("/new") { _, _ in "followed" }
        router.get("/host") { request, _ in request.head.authority ?? "none" }
        router.head("/large") { _, _ in Response(status: .ok, headers: [.contentLength: "1234"]) }
        router.get("/cookies") { _, _ in
            var headers = HTTPFields()
            headers.append(HTTPField(name: .setCookie, value: "a=1; Path=/"))
            headers.append(HTTPField(name: .setCookie, value: "b=2; Path=/"))
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: "ok")))
        }
        try await withUpstream(router) { upstream in
            try await withProxy(upstream: upstream) { _, url in
                let redirect = try await ProxyHTTP.fetch(url, "/old")
                #expect(redirect.status == 302)
                #expect(redirect.header("Location") == "/new")
                #expect(redirect.text != "followed")

                let host = try await ProxyHTTP.fetch(url, "/host", headers: [("Host", "app.example.com")])
                #expect(host.text == "127.0.0.1:\(upstream.port ?? 0)")

                let head = try await ProxyHTTP.fetch(url, "/large", method: .HEAD)
                #expect(head.status == 200)
                #expect(head.header("Content-Length") == "1234")
                #expect(head.body.isEmpty)

                let response = try await ProxyHTTP.client.execute(ProxyHTTP.request(url, "/cookies"), timeout: .seconds(20))
                #expect(response.headers["set-cookie"] == ["a=1; Path=/", "b=2; Path=/"])
                #expect(String(buffer: try await response.body.collect(upTo: 1024)) == "ok")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An upstream path prefix comes before each request's path")
    func pathPrefix() async throws {
        try await withBackend { _, upstream in
            try await withProxy(upstream: upstream.appendingPathComponent("b")) { _, url in
                let answer = try await ProxyHTTP.fetch(url, "/echo/x?y=1")
                #expect(answer.value(at: "data.path") as? String == "/b/echo/x?y=1")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An upstream nobody listens on is a 502 whose JSON says why")
    func deadUpstream() async throws {
        try await withProxy(upstream: refusedURL) { _, url in
            let answer = try await ProxyHTTP.fetch(url, "/b/products")
            #expect(answer.status == 502)
            #expect(answer.header("Backstop-Proxy-Error") == "502")
            let error = try #require(answer.value(at: "error") as? String)
            #expect(error.hasPrefix("backstop proxy: the upstream http://127.0.0.1:1 failed: "))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An upstream that hangs is a 502 once the upstream timeout passes on the proxy's clock")
    func hangingUpstream() async throws {
        let proxyClock = TestClock()
        // The upstream's slow answer waits on its own test clock, which nobody advances.
        try await withBackend { backend, upstream in
            try await withProxy(upstream: upstream, clock: proxyClock, { $0.upstreamTimeout = .seconds(5) }) { _, url in
                let answer = Task { try await ProxyHTTP.fetch(url, "/scenarios/slow/b/products") }
                _ = try await backend.requestLog.arrival()
                await proxyClock.advance(by: .seconds(6))
                let fetched = try await answer.value
                #expect(fetched.status == 502)
                #expect(
                    fetched.value(at: "error") as? String
                        == "backstop proxy: the upstream \(upstream.absoluteString) did not answer within 5.0 seconds")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("On the system's clock too, a dead upstream, one that hangs and one too long are each a 502")
    func systemClock() async throws {
        try await withProxy(upstream: refusedURL, clock: ContinuousClock()) { _, url in
            let dead = try await ProxyHTTP.fetch(url, "/b/products")
            #expect(dead.status == 502)
        }
        // The upstream's slow answer waits on a test clock nobody advances: the proxy gives up
        // after its own timeout, a second of real time. Not less: the answer that must pass
        // afterwards has the same time, and a loaded machine took more than 0.2 s for it.
        try await withBackend { _, upstream in
            try await withProxy(
                upstream: upstream, clock: ContinuousClock(),
                {
                    $0.upstreamTimeout = .seconds(1)
                    $0.maximumResponseBodyBytes = 1000
                }
            ) { _, url in
                let hung = try await ProxyHTTP.fetch(url, "/scenarios/slow/b/products")
                #expect(hung.status == 502)
                #expect(
                    hung.value(at: "error") as? String
                        == "backstop proxy: the upstream \(upstream.absoluteString) did not answer within 1.0 seconds")
                let long = try await ProxyHTTP.fetch(url, "/b/sized/2000")
                #expect(long.status == 502)
                let fine = try await ProxyHTTP.fetch(url, "/b/products/1")
                #expect(fine.status == 200)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A request body over the limit is a 413 and is not forwarded; an answer over the limit is a 502")
    func bodyLimits() async throws {
        try await withBackend { backend, upstream in
            try await withProxy(
                upstream: upstream,
                {
                    $0.maximumRequestBodyBytes = 100
                    $0.maximumResponseBodyBytes = 1000
                }
            ) { _, url in
                let tooLarge = try await ProxyHTTP.fetch(url, "/b/echo", method: .POST, body: String(repeating: "x", count: 101))
                #expect(tooLarge.status == 413)
                #expect(
                    tooLarge.value(at: "error") as? String == "backstop proxy: a request body is at most 100 bytes; it was not forwarded")
                #expect(await backend.requestLog.entries.isEmpty)

                let fits = try await ProxyHTTP.fetch(url, "/b/echo", method: .POST, body: String(repeating: "x", count: 100))
                #expect(fits.status == 200)

                let tooLong = try await ProxyHTTP.fetch(url, "/b/sized/2000")
                #expect(tooLong.status == 502)
                #expect(
                    tooLong.value(at: "error") as? String
                        == "backstop proxy: the upstream's answer is over 1000 bytes, the most the proxy passes back")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Credentials reach the upstream as sent but never the proxy's log")
    func secretsStayOutOfTheLog() async throws {
        let handler = InMemoryLogHandler.keepingDebug()
        let logger = Logger(label: "proxy") { _ in handler }
        try await withBackend { _, upstream in
            try await withProxy(upstream: upstream, logger: logger) { _, url in
                let answer = try await ProxyHTTP.fetch(
                    url, "/b/echo?api_key=sekrit-query-1&page=2",
                    headers: [
                        ("Authorization", "Bearer sekrit-token-2"), ("Cookie", "session=sekrit-cookie-3"), ("X-Api-Key", "sekrit-key-4"),
                        ("Proxy-Authorization", "Basic sekrit-proxy-5"),
                    ])
                let headers = try #require(answer.value(at: "data.headers") as? [String: String])
                #expect(headers["authorization"] == "Bearer sekrit-token-2")
                #expect(headers["cookie"] == "session=sekrit-cookie-3")
                #expect(headers["x-api-key"] == "sekrit-key-4")
                // Addressed to the proxy, so never forwarded.
                #expect(headers["proxy-authorization"] == nil)
                #expect(answer.value(at: "data.path") as? String == "/b/echo?api_key=sekrit-query-1&page=2")
            }
        }
        let logged = handler.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(handler.entries.count == 1)
        #expect(!logged.contains("sekrit"))
        #expect(logged.contains("page=2"))
        #expect(logged.contains("<redacted>"))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An upstream's user and password stay out of the log and the client's 502")
    func upstreamCredentials() async throws {
        let handler = InMemoryLogHandler.keepingDebug()
        let upstream = try #require(URL(string: "http://user:sekrit-pass@127.0.0.1:1/api"))
        try await withProxy(upstream: upstream, logger: Logger(label: "proxy") { _ in handler }) { _, url in
            let answer = try await ProxyHTTP.fetch(url, "/orders?page=1")
            #expect(answer.status == 502)
            #expect(!answer.text.contains("sekrit"))
        }
        let logged = handler.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(logged.contains("http://127.0.0.1:1/api/orders?page=1"))
        #expect(!logged.contains("sekrit"))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A Backstop-Scenario the proxy cannot read is a 400 naming what is wrong, and is not forwarded")
    func unreadableScenario() async throws {
        try await withBackend { backend, upstream in
            try await withProxy(upstream: upstream) { _, url in
                let unknown = try await ProxyHTTP.fetch(url, "/b/products", headers: [("Backstop-Scenario", "lag")])
                #expect(unknown.status == 400)
                #expect(
                    unknown.value(at: "error") as? String
                        == "backstop proxy: Backstop-Scenario: no proxy scenario is named 'lag'; the names are "
                        + ProxyScenario.names.joined(separator: ", "))
                let badValue = try await ProxyHTTP.fetch(url, "/b/products", headers: [("Backstop-Scenario", "latency; ms=soon")])
                #expect(
                    badValue.value(at: "error") as? String
                        == "backstop proxy: Backstop-Scenario: ms=soon in scenario 'latency' is not a whole number from 0 to 600000")
                #expect(await backend.requestLog.entries.isEmpty)
            }
        }
    }
}
