extension APIError {
    /// What the user can do about this error, before any app override.
    ///
    /// The rules, most specific first:
    /// - A code's role decides: `tokenExpired` and `signInRequired` → ``RecoveryCategory/unauthorized``
    ///   (an expired token that reaches the user means the session could not refresh it),
    ///   `maintenance` → ``RecoveryCategory/unavailable``, `rateLimited` → ``RecoveryCategory/rateLimited``.
    /// - Transport: offline, unknown host and lost connection → offline; timed out → timedOut;
    ///   refused connection → unavailable; cancelled → cancelled; TLS and others → unknown.
    /// - HTTP: 401 → unauthorized; 403, 451 → forbidden; 404, 410 → notFound; 408, 504 → timedOut;
    ///   429 → rateLimited; other 4xx → rejectedInput; 503 → unavailable; other 5xx →
    ///   serverFailure; any other status → unknown.
    /// - Decoding → unreadableResponse. Business codes without a role → rejectedInput.
    /// - Client: `invalidInput` → rejectedInput, `noNetwork` → offline, the session's
    ///   `tokenRefreshFailed`, `tooManyRefreshes` and `signedOut` → unauthorized, an open circuit
    ///   (`circuitOpen`) → unavailable, a full concurrency limit (`tooManyCalls`) → rateLimited,
    ///   others → unknown
    ///   (apps map their own reasons with ``RecoveryOverrides/Key/client(_:)``).
    public var recoveryCategory: RecoveryCategory {
        if let role { return role.recoveryCategory }
        switch self {
        case .transport(let failure): return failure.reason.recoveryCategory
        case .http(let failure): return RecoveryCategory(status: failure.status.code)
        case .decoding: return .unreadableResponse
        case .server: return .rejectedInput
        case .client(let failure):
            switch failure.reason {
            case .invalidInput: return .rejectedInput
            case .noNetwork: return .offline
            case .tokenRefreshFailed, .tooManyRefreshes, .signedOut: return .unauthorized
            case .circuitOpen: return .unavailable
            case .tooManyCalls: return .rateLimited
            default: return .unknown
            }
        }
    }
}

extension ServerCodeRole {
    // Exhaustive on purpose: a new role must decide what the user can do about it.
    var recoveryCategory: RecoveryCategory {
        switch self {
        case .tokenExpired, .signInRequired: .unauthorized
        case .maintenance: .unavailable
        case .rateLimited: .rateLimited
        }
    }
}

extension TransportFailure.Reason {
    var recoveryCategory: RecoveryCategory {
        switch self {
        case .offline, .cannotFindHost, .connectionLost: .offline
        case .timedOut: .timedOut
        case .cancelled: .cancelled
        case .cannotConnectToHost: .unavailable
        case .tlsFailure, .other: .unknown
        }
    }
}

extension RecoveryCategory {
    init(status: Int) {
        switch status {
        case 401: self = .unauthorized
        case 403, 451: self = .forbidden
        case 404, 410: self = .notFound
        case 408, 504: self = .timedOut
        case 429: self = .rateLimited
        case 503: self = .unavailable
        case 400...499: self = .rejectedInput
        case 500...599: self = .serverFailure
        default: self = .unknown
        }
    }
}
