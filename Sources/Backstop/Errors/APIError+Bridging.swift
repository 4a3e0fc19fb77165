import BackstopJSON
import Foundation

extension APIError: CustomNSError {
    /// The domain shared by every layer where Foundation cannot tell layers apart.
    ///
    /// Foundation on Apple platforms bridges each error with its layer's domain
    /// (``Layer/errorDomain``, such as `Backstop.transport`); Foundation on Linux reads
    /// only this static domain, so there every bridged error has domain `Backstop`.
    public static var errorDomain: String { "Backstop" }

    // Apple's Foundation asks each value for its domain through this requirement of `Error`,
    // which lets one enum bridge with a domain per layer.
    public var _domain: String { layer.errorDomain }

    /// The code analytics see: the business code for business failures (text codes that are
    /// not numbers get a stable hash), the HTTP status for HTTP errors, the underlying
    /// error's code for transport errors (or the matching `URLError` code when there is
    /// none), the reason's code for client errors, and a code per problem for decoding errors.
    public var errorCode: Int {
        switch self {
        case .transport(let failure):
            failure.underlying?.code ?? failure.reason.urlErrorCode
        case .http(let failure):
            failure.status.code
        case .decoding(let failure):
            failure.problem.errorCode
        case .server(let error):
            error.code.intValue ?? Self.stableHash(error.code.stringValue)
        case .client(let failure):
            failure.reason.code
        }
    }

    /// The user message, failure reason and recovery suggestion; the underlying error; the
    /// server's code and message; and the developer description under `NSDebugDescription`.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: userMessage(),
            NSDebugDescriptionErrorKey: description,
        ]
        info[NSLocalizedFailureReasonErrorKey] = failureReason
        info[NSLocalizedRecoverySuggestionErrorKey] = recoverySuggestion
        // `NSError`'s own description prints these: nothing in them may act on a terminal.
        info[Self.serverMessageKey] = serverMessage.map(UntrustedText.forUser)
        info[Self.serverCodeKey] = businessCode.map { UntrustedText.escaped($0.stringValue) }
        switch self {
        case .transport(let failure): info[NSUnderlyingErrorKey] = failure.underlying.map { $0.error as NSError }
        case .client(let failure): info[NSUnderlyingErrorKey] = failure.underlying.map { $0.error as NSError }
        case .http, .decoding, .server: break
        }
        return info
    }

    /// This error as an `NSError` with its layer's domain on every platform.
    ///
    /// Prefer it to `as NSError` when the domain matters on Linux, whose Foundation bridges
    /// with the static ``errorDomain`` only.
    public var nsError: NSError {
        NSError(domain: layer.errorDomain, code: errorCode, userInfo: errorUserInfo)
    }

    /// The `errorUserInfo` key of the server's own message, as a user may see it: control and
    /// bidirectional characters removed (``APIError/serverMessage`` keeps the text as received).
    public static var serverMessageKey: String { "BackstopServerMessage" }
    /// The `errorUserInfo` key of the business code, as text, control characters escaped.
    public static var serverCodeKey: String { "BackstopServerCode" }

    // FNV-1a: the same text gives the same code on every run and platform, unlike `hashValue`.
    private static func stableHash(_ text: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return Int(hash & 0x7FFF_FFFF)
    }
}

extension APIError.Layer {
    /// The `NSError` domain of this layer's errors: `Backstop.transport`, `Backstop.http`…
    public var errorDomain: String { "Backstop.\(rawValue)" }
}

extension TransportFailure.Reason {
    /// The `URLError` code for this reason, for failures that carry no underlying error.
    var urlErrorCode: Int {
        switch self {
        case .offline: URLError.Code.notConnectedToInternet.rawValue
        case .timedOut: URLError.Code.timedOut.rawValue
        case .cancelled: URLError.Code.cancelled.rawValue
        case .cannotFindHost: URLError.Code.cannotFindHost.rawValue
        case .cannotConnectToHost: URLError.Code.cannotConnectToHost.rawValue
        case .connectionLost: URLError.Code.networkConnectionLost.rawValue
        case .tlsFailure: URLError.Code.secureConnectionFailed.rawValue
        case .other: URLError.Code.unknown.rawValue
        }
    }
}

extension DecodingFailure.Problem {
    /// A fixed code per problem, so analytics can count them without parsing text.
    var errorCode: Int {
        switch self {
        case .emptyBody: 1
        case .notJSON: 2
        case .missing: 3
        case .null: 4
        case .wrongType: 5
        case .invalidValue: 6
        }
    }
}
