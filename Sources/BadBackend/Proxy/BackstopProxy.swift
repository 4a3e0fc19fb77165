import Foundation
import Logging

#if BadBackend && OpenAPI
    import AsyncHTTPClient
    import Hummingbird
    import NIOCore
    import ServiceLifecycle
#else
    #error(
        "BadBackend needs Backstop's BadBackend and OpenAPI traits: .package(name: \"Backstop\", …, traits: [\"BadBackend\", \"OpenAPI\"])")
#endif

/// A proxy in front of a real backend that misbehaves on purpose: each answer the backend
/// gives, dirtied or delayed, cut or refused, as a ``ProxyScenario`` says.
///
/// ```swift
/// // fragment: `stagingURL` is your own backend's.
/// let proxy = BackstopProxy(configuration: .init(upstream: stagingURL))
/// try await proxy.withRunning { proxyURL in
///     // GET \(proxyURL)/v1/orders with `Backstop-Scenario: trailing-commas`: the backend's
///     // answer, with a comma after the last member of each object and array.
/// }
/// ```
///
/// It forwards each request with AsyncHTTPClient, its certificates verified as usual: the
/// method, path, query and headers as sent, `Host` set to the upstream's, hop-by-hop headers
/// and `Backstop-Scenario` left out. Redirects come back to the client, not followed. An
/// upstream that cannot be reached, or does not answer within
/// ``Configuration/upstreamTimeout``, gets the client a 502 whose JSON body says why; a body
/// over the limits gets a 413 (request) or a 502 (answer). What it logs has every credential
/// replaced by `<redacted>`: `Authorization`, cookies, API-key headers and secret query items.
///
/// It binds 127.0.0.1 on a port the system picks unless ``Configuration`` says otherwise. It
/// is a swift-service-lifecycle `Service`: run it in a `ServiceGroup`, or use
/// ``withRunning(_:)``. Each instance runs once. Its faults wait on the clock given at init,
/// so a test with a test clock never sleeps.
@available(macOS 14, iOS 17, tvOS 17, *)
public final class BackstopProxy: Service, Sendable {
    /// Where it listens and forwards, and how it misbehaves, as given at init.
    public let configuration: Configuration
    /// The requests received, paths with secret query items redacted, for tests to read; no
    /// bodies or credentials. A request's attempt number is what random faults draw from.
    public let requestLog: RequestLog
    let clock: BackendClock
    let logger: Logger
    private let listener = Listener(name: "BackstopProxy")

    /// - Parameters:
    ///   - configuration: The upstream, where to listen and how to misbehave.
    ///   - clock: The clock faults and the upstream's timeout are measured on.
    ///   - logger: Where each exchange is logged: one `info` line, its headers at `debug`,
    ///     credentials redacted.
    public init(
        configuration: Configuration, clock: some Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "backstop.proxy")
    ) {
        self.configuration = configuration
        self.clock = BackendClock(clock)
        self.logger = logger
        requestLog = RequestLog(maximumBodyBytes: 0)
    }

    /// Serves until the service group shuts it down gracefully or the task is cancelled.
    public func run() async throws {
        var quiet = Logger(label: "BackstopProxy")
        quiet.logLevel = .critical
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.clientConfiguration(configuration))
        let host = configuration.host
        let listener = listener
        let app = Application(
            responder: ProxyResponder(proxy: self, client: client),
            configuration: ApplicationConfiguration(address: .hostname(host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                await listener.bound(host: host, port: channel.localAddress?.port ?? 0)
            },
            logger: quiet
        )
        do {
            try await app.run()
            await listener.stopped(because: "it has stopped")
        } catch {
            await listener.stopped(because: "it failed: \(error)")
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    /// The upstream client: certificates verified as AsyncHTTPClient's defaults verify them,
    /// redirects handed back, a refused connection failing at once, bodies as sent, never
    /// decompressed, and up to 128 connections to the upstream.
    private static func clientConfiguration(_ configuration: Configuration) -> HTTPClient.Configuration {
        var client = HTTPClient.Configuration()
        client.redirectConfiguration = .disallow
        client.decompression = .disabled
        client.connectionPool.retryConnectionEstablishment = false
        // As many upstream connections as clients a test drives at once (AsyncHTTPClient keeps 8
        // by default): requests beyond them queue for a connection, which adds to every
        // answer's latency.
        client.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 128
        // No spans: AsyncHTTPClient otherwise makes one per request on whatever tracer it
        // finds, even the no-op one, and the proxy reports in its log instead.
        client.tracing.tracer = nil
        let (seconds, attoseconds) = configuration.upstreamTimeout.components
        let timeout = TimeAmount.nanoseconds(max(seconds, 0) * 1_000_000_000 + attoseconds / 1_000_000_000)
        client.timeout = HTTPClient.Configuration.Timeout(connect: min(timeout, .seconds(10)), read: timeout)
        return client
    }

    /// The base URL once the proxy listens, such as `http://127.0.0.1:53124`.
    ///
    /// - Throws: ``BadBackend/NotListening`` when the proxy stopped, or failed to bind, first.
    public func listening() async throws(BadBackend.NotListening) -> URL {
        try await listener.url()
    }

    /// Runs the proxy around `body`: starts it, hands `body` its base URL, then stops it
    /// gracefully and returns once it has stopped.
    public func withRunning<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        try await runWhileListening(self, label: "BackstopProxy.lifecycle", listening: { try await self.listening() }, body)
    }
}
