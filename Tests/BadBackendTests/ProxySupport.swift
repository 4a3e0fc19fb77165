import AsyncHTTPClient
import BadBackend
import Clocks
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Runs a BackstopProxy on 127.0.0.1, port 0, in front of `upstream`, around `body`.
///
/// Its clock is a test clock unless given, so no fault waits unless the test advances it.
@available(macOS 14, iOS 17, tvOS 17, *)
func withProxy<Result>(
    upstream: URL,
    clock: some Clock<Duration> = TestClock(),
    logger: Logger = Logger(label: "proxy-test") { _ in SwiftLogNoOpLogHandler() },
    _ configure: (inout BackstopProxy.Configuration) -> Void = { _ in },
    _ body: (BackstopProxy, URL) async throws -> Result
) async throws -> Result {
    var configuration = BackstopProxy.Configuration(upstream: upstream)
    configure(&configuration)
    let proxy = BackstopProxy(configuration: configuration, clock: clock, logger: logger)
    return try await proxy.withRunning { url in try await body(proxy, url) }
}

/// Requests over loopback with AsyncHTTPClient, headers as given, redirects handed back.
enum ProxyHTTP {
    /// One client for the whole test process, never shut down, as `HTTPClient.shared` is.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    static func request(
        _ base: URL, _ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: String? = nil
    ) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: base.absoluteString + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        return request
    }

    /// Sends one request and reads the whole answer.
    static func fetch(
        _ base: URL, _ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: String? = nil
    ) async throws -> Fetched {
        let response = try await client.execute(
            request(base, path, method: method, headers: headers, body: body), timeout: .seconds(20))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        var fields: [String: String] = [:]
        for (name, value) in response.headers {
            let key = name.lowercased()
            fields[key] = fields[key].map { $0 + ", " + value } ?? value
        }
        return Fetched(status: Int(response.status.code), headers: fields, body: Data(buffer: bytes))
    }
}

/// A Hummingbird app of the test's own as the upstream, for answers BadBackend never gives
/// (a redirect, two cookies), on 127.0.0.1 port 0.
@available(macOS 14, iOS 17, tvOS 17, *)
func withUpstream<Result>(_ router: Router<BasicRequestContext>, _ body: (URL) async throws -> Result) async throws -> Result {
    let (bound, continuation) = AsyncStream.makeStream(of: Int.self)
    var quiet = Logger(label: "upstream")
    quiet.logLevel = .critical
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            continuation.yield(channel.localAddress?.port ?? 0)
            continuation.finish()
        }, logger: quiet)
    let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: quiet))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        defer { tasks.cancelAll() }
        var ports = bound.makeAsyncIterator()
        guard let port = await ports.next(), let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw UpstreamNotListening()
        }
        do {
            let result = try await body(url)
            await group.triggerGracefulShutdown()
            return result
        } catch {
            await group.triggerGracefulShutdown()
            throw error
        }
    }
}

struct UpstreamNotListening: Error {}
