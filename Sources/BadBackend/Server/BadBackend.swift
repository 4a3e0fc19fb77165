import Foundation
import Logging

#if BadBackend && OpenAPI
    import Hummingbird
    import ServiceLifecycle
#else
    #error(
        "BadBackend needs Backstop's BadBackend and OpenAPI traits: .package(name: \"Backstop\", …, traits: [\"BadBackend\", \"OpenAPI\"])")
#endif

/// A real HTTP server that breaks its contracts on purpose, for end-to-end tests and demos.
///
/// It serves products, a study group, an account, an echo of the request and a payload of
/// any size in envelope styles A, B and C (``EnvelopeStyle``), clean at `/<style>/<resource>` and misbehaving at
/// `/scenarios/<scenario>/<style>/<resource>` (``Scenario``); `GET /scenarios` lists it all.
/// See <doc:ScenarioPaths>. Given an app's own OpenAPI document (``Configuration/document``),
/// it serves that document's operations instead, misbehaving where its schemas say (``ServedDocument``).
///
/// ```swift
/// let backend = BadBackend(clock: testClock)
/// try await backend.withRunning { baseURL in
///     // GET \(baseURL)/scenarios/http-503/b/products: three attempts, then …
///     #expect(await backend.requestLog.entries.count == 3)
/// }
/// ```
///
/// It binds 127.0.0.1 on a port the system picks unless ``Configuration`` says otherwise.
/// It is a swift-service-lifecycle `Service`: run it in a `ServiceGroup`, or use
/// ``withRunning(_:)``, which starts it, waits until it listens and stops it gracefully.
/// Each instance runs once. Token lifetimes and slow answers follow the clock given at
/// init, so a test with a test clock never sleeps; a slow answer still waiting when the
/// server stops gracefully is dropped, so stopping never waits for it. Like Hummingbird 2, it needs macOS 14 or
/// iOS 17 on Apple platforms.
@available(macOS 14, iOS 17, tvOS 17, *)
public final class BadBackend: Service, Sendable {
    /// Where it listens and how it behaves, as given at init.
    public let configuration: Configuration
    /// The requests received, for tests to read: the last
    /// ``Configuration/maximumLoggedRequests``, bodies cut at ``Configuration/maximumLoggedBodyBytes``.
    public let requestLog: RequestLog
    let tokens: TokenStore
    let clock: BackendClock
    let burstRoom = BurstRoom()
    private let listener = Listener(name: "BadBackend")

    /// - Parameters:
    ///   - configuration: Where to listen and how to behave; loopback on a free port by default.
    ///   - clock: The clock token lifetimes and slow answers are measured on.
    public init(configuration: Configuration = Configuration(), clock: some Clock<Duration> = ContinuousClock()) {
        self.configuration = configuration
        requestLog = RequestLog(
            maximumEntries: configuration.maximumLoggedRequests, maximumBodyBytes: configuration.maximumLoggedBodyBytes)
        self.clock = BackendClock(clock)
        tokens = TokenStore(
            clock: self.clock, lifetime: configuration.accessTokenLifetime,
            refreshBehaviour: configuration.refresh)
    }

    /// Serves until the service group shuts it down gracefully or the task is cancelled.
    ///
    /// Binding anything but loopback prints a warning to standard error first.
    public func run() async throws {
        if !configuration.bindsLoopbackOnly {
            FileHandle.standardError.write(
                Data(
                    """
                    warning: BadBackend is binding \(configuration.host), so other machines can reach it; \
                    it misbehaves on purpose and has no real security.\n
                    """.utf8))
        }
        if let document = configuration.document {
            try await run(DocumentResponder(backend: self, document: document))
        } else {
            try await run(BackendResponder(backend: self))
        }
    }

    private func run(_ responder: some HTTPResponder<BasicRequestContext>) async throws {
        var quiet = Logger(label: "BadBackend")
        quiet.logLevel = .critical
        let host = configuration.host
        let listener = listener
        let app = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(host, port: configuration.port), serverName: "BadBackend"),
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
            throw error
        }
    }

    /// The base URL once the server listens, such as `http://127.0.0.1:53124`.
    ///
    /// - Throws: ``NotListening`` when the server stopped, or failed to bind, first.
    public func listening() async throws(NotListening) -> URL {
        try await listener.url()
    }

    /// Runs the server around `body`: starts it, hands `body` its base URL, then stops it
    /// gracefully and returns once it has stopped.
    public func withRunning<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        try await runWhileListening(self, label: "BadBackend.lifecycle", listening: { try await self.listening() }, body)
    }

    /// Changes what the refresh endpoint does from now on.
    public func setRefreshBehaviour(_ behaviour: RefreshBehaviour) async {
        await tokens.setRefreshBehaviour(behaviour)
    }

    /// The server is not listening, and why.
    public struct NotListening: Error, CustomStringConvertible {
        /// Why, in one line.
        public let description: String
    }
}
