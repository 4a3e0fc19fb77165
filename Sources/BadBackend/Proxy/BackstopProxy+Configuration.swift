import Foundation

@available(macOS 14, iOS 17, tvOS 17, *)
extension BackstopProxy {
    /// Where the proxy listens, where it forwards and how it misbehaves when a request names no scenario.
    public struct Configuration: Sendable {
        /// The backend every request goes to: `http` or `https`, with a host, and optionally a
        /// path prefix that each request's path is appended to.
        public var upstream: URL
        /// The address to bind: loopback unless set otherwise.
        public var host: String
        /// The port to bind; 0 lets the system pick a free one, which ``BackstopProxy/listening()`` reports.
        public var port: Int
        /// The scenario for requests without a `Backstop-Scenario` header; none when `nil`.
        public var scenario: ProxyScenario?
        /// Faults from ``ProxyScenario/randomFaults`` for requests that name no scenario when
        /// ``scenario`` is `nil`; none when `nil`.
        public var randomFaults: RandomFaults?
        /// The seed of what a scenario draws (`http-5xx`'s ratio, `latency`'s jitter): the same
        /// seed gives the same draws to the same method, path and attempt.
        public var seed: UInt64
        /// How long the upstream has to answer, head and body, on the proxy's clock, before the
        /// client gets a 502.
        public var upstreamTimeout: Duration
        /// The largest request body forwarded; a larger one gets a 413 and is not forwarded.
        public var maximumRequestBodyBytes: Int
        /// The largest answer body passed back; a larger one gets a 502.
        public var maximumResponseBodyBytes: Int
        /// The app's OpenAPI document, which makes dirt schema-aware: made where the schema of
        /// the request's operation says each value is (``ProxyScenario/schemaDirt(_:)``), and
        /// the byte dirt too, and places codes in the code field it declares
        /// (``ProxyScenario/code(_:)``). Its `scenario` is not used: ``scenario`` is the
        /// proxy's. `nil`: byte- and fault-level only.
        public var document: BadBackend.ServedDocument?

        /// The loopback address the proxy binds unless told otherwise.
        public static let loopback = "127.0.0.1"

        /// Loopback on a free port, no scenario, no random faults, seed 0, 30 seconds for the
        /// upstream, 10 MiB request bodies and 32 MiB answers, and no document.
        public init(
            upstream: URL,
            host: String = Configuration.loopback,
            port: Int = 0,
            scenario: ProxyScenario? = nil,
            randomFaults: RandomFaults? = nil,
            seed: UInt64 = 0,
            upstreamTimeout: Duration = .seconds(30),
            maximumRequestBodyBytes: Int = 10 << 20,
            maximumResponseBodyBytes: Int = 32 << 20,
            document: BadBackend.ServedDocument? = nil
        ) {
            self.upstream = upstream
            self.host = host
            self.port = port
            self.scenario = scenario
            self.randomFaults = randomFaults
            self.seed = seed
            self.upstreamTimeout = upstreamTimeout
            self.maximumRequestBodyBytes = max(maximumRequestBodyBytes, 0)
            self.maximumResponseBodyBytes = max(maximumResponseBodyBytes, 0)
            self.document = document
        }
    }
}
