@available(macOS 14, iOS 17, tvOS 17, *)
extension BadBackend {
    /// Where BadBackend listens and how it behaves when no scenario is named.
    public struct Configuration: Sendable {
        /// The address to bind: loopback unless set otherwise, and anything else prints a warning.
        public var host: String
        /// The port to bind; 0 lets the system pick a free one, which ``BadBackend/listening()`` reports.
        public var port: Int
        /// Faults injected at random into requests that name no scenario; none when `nil`.
        public var randomFaults: RandomFaults?
        /// How long an access token lives, on the server's clock.
        public var accessTokenLifetime: Duration
        /// Whether an expired access token gets the token-expired code in a 200 or a 401.
        public var expiredToken: ExpiredTokenAnswer
        /// What the refresh endpoint does at first; ``BadBackend/setRefreshBehaviour(_:)`` changes it.
        public var refresh: RefreshBehaviour
        /// How long the `slow` scenario and a slow refresh wait, on the server's clock.
        ///
        /// The wait starts before the request reaches the ``RequestLog``, so a test that sees
        /// the request there and advances a test clock *past* the delay always gets the answer
        /// (swift-clocks' `TestClock` keeps waiting a sleep that starts exactly at its deadline).
        public var slowAnswerDelay: Duration
        /// The most requests ``BadBackend/requestLog`` keeps, the last ones; 1,000 by default.
        public var maximumLoggedRequests: Int
        /// The most bytes of each request body ``BadBackend/requestLog`` keeps; 64 KiB by default.
        /// The answer (the echo) still sees the whole body, up to the server's 1 MiB limit.
        public var maximumLoggedBodyBytes: Int
        /// An app's own OpenAPI document, served in place of BadBackend's resources; `nil` for
        /// BadBackend's own products, study group and account.
        public var document: ServedDocument?

        /// The loopback address BadBackend binds unless told otherwise.
        public static let loopback = "127.0.0.1"

        /// Loopback on a free port, no random faults, five-minute tokens whose expiry is a
        /// business code, a refresh that works, ten-second slow answers, and a request log of
        /// the last 1,000 requests with their first 64 KiB of body.
        public init(
            host: String = Configuration.loopback,
            port: Int = 0,
            randomFaults: RandomFaults? = nil,
            accessTokenLifetime: Duration = .seconds(300),
            expiredToken: ExpiredTokenAnswer = .tokenExpiredCode,
            refresh: RefreshBehaviour = .succeeds,
            slowAnswerDelay: Duration = .seconds(10),
            maximumLoggedRequests: Int = 1_000,
            maximumLoggedBodyBytes: Int = 64 << 10,
            document: ServedDocument? = nil
        ) {
            self.host = host
            self.port = port
            self.randomFaults = randomFaults
            self.accessTokenLifetime = accessTokenLifetime
            self.expiredToken = expiredToken
            self.refresh = refresh
            self.slowAnswerDelay = slowAnswerDelay
            self.maximumLoggedRequests = maximumLoggedRequests
            self.maximumLoggedBodyBytes = maximumLoggedBodyBytes
            self.document = document
        }

        /// Whether ``host`` is reachable only from this machine.
        public var bindsLoopbackOnly: Bool {
            ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.")
        }
    }
}
