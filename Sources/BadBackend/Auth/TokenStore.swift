/// The sessions BadBackend has handed out, with lifetimes measured on the server's clock.
///
/// Access tokens are `access-1`, `access-2`… in issue order, refresh tokens `refresh-1`…, so
/// tests and logs can say which credential a request used.
actor TokenStore {
    /// What a request's access token amounts to.
    enum Check: Equatable {
        case valid, expired, missing, unknown
    }

    private let clock: BackendClock
    private let lifetime: Duration
    private var issued = 0
    private var accessExpiry: [String: Duration] = [:]
    private var liveRefreshTokens: Set<String> = []
    private(set) var refreshBehaviour: RefreshBehaviour

    init(clock: BackendClock, lifetime: Duration, refreshBehaviour: RefreshBehaviour) {
        self.clock = clock
        self.lifetime = lifetime
        self.refreshBehaviour = refreshBehaviour
    }

    func setRefreshBehaviour(_ behaviour: RefreshBehaviour) {
        refreshBehaviour = behaviour
    }

    func signIn() -> IssuedTokens {
        issued += 1
        let tokens = IssuedTokens(
            access: "access-\(issued)", refresh: "refresh-\(issued)",
            lifetimeSeconds: Int(lifetime.components.seconds))
        accessExpiry[tokens.access] = clock.elapsed() + lifetime
        liveRefreshTokens.insert(tokens.refresh)
        return tokens
    }

    /// New tokens for a live refresh token, which stops working; `nil` for any other.
    func refresh(_ token: String?) -> IssuedTokens? {
        guard let token, liveRefreshTokens.remove(token) != nil else { return nil }
        return signIn()
    }

    /// An access token is valid until its lifetime has passed on the server's clock.
    func check(_ token: String?) -> Check {
        guard let token else { return .missing }
        guard let expiry = accessExpiry[token] else { return .unknown }
        return clock.elapsed() < expiry ? .valid : .expired
    }
}
