import Backstop

#if AsyncHTTPClient
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOSSL
#else
    #error("BackstopAsyncHTTPClient needs Backstop's AsyncHTTPClient trait: .package(name: \"Backstop\", …, traits: [\"AsyncHTTPClient\"])")
#endif

extension TransportFailure {
    /// Classifies an error of AsyncHTTPClient or SwiftNIO by its value, keeping it as `underlying`.
    ///
    /// | error | reason |
    /// |---|---|
    /// | `HTTPClientError` `connectTimeout`, `readTimeout`, `writeTimeout`, `getConnectionFromPoolTimeout`, `tlsHandshakeTimeout`, `deadlineExceeded`, `socksHandshakeTimeout`, `httpProxyHandshakeTimeout`; `ChannelError.connectTimeout` | `.timedOut` |
    /// | `HTTPClientError` `remoteConnectionClosed`; `ChannelError` `ioOnClosedChannel`, `alreadyClosed`, `eof`, `inputClosed`, `outputClosed`; `HTTPParserError` `invalidEOFState`, `closedConnection` | `.connectionLost` |
    /// | `HTTPClientError` `cancelled`, `requestStreamCancelled`; `CancellationError` | `.cancelled` |
    /// | `NIOConnectionError` with a DNS error and no connection attempt | `.cannotFindHost` |
    /// | any other `NIOConnectionError`; `ChannelError.writeHostUnreachable` | `.cannotConnectToHost` |
    /// | `IOError` | by its errno, as POSIX errors are (`ECONNREFUSED` → `.cannotConnectToHost`) |
    /// | `NIOSSLError`, `NIOSSLExtraError`, `BoringSSLError` | `.tlsFailure` |
    /// | a `TransportFailure`, a `URLError`, a POSIX error | as `TransportFailure.init(_:)` classifies them |
    /// | anything else | `.other` |
    public init(asyncHTTPClientError error: any Error) {
        if let failure = error as? TransportFailure {
            self = failure
            return
        }
        guard let reason = Self.reason(forAsyncHTTPClientError: error) else {
            self.init(error)
            return
        }
        self.init(reason, underlying: error)
    }

    private static func reason(forAsyncHTTPClientError error: any Error) -> Reason? {
        switch error {
        case let error as HTTPClientError: reason(for: error)
        case let error as ChannelError: reason(for: error)
        case let error as IOError: reason(forPOSIX: error.errnoCode) ?? .other
        case let error as NIOConnectionError: reason(for: error)
        case let error as HTTPParserError:
            error == .invalidEOFState || error == .closedConnection ? .connectionLost : .other
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError: .tlsFailure
        default: nil
        }
    }

    private static func reason(for error: HTTPClientError) -> Reason {
        switch error {
        case .connectTimeout, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout,
            .deadlineExceeded, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            .timedOut
        case .remoteConnectionClosed:
            .connectionLost
        case .cancelled, .requestStreamCancelled:
            .cancelled
        default:
            .other
        }
    }

    private static func reason(for error: ChannelError) -> Reason {
        switch error {
        case .connectTimeout: .timedOut
        case .ioOnClosedChannel, .alreadyClosed, .eof, .inputClosed, .outputClosed: .connectionLost
        case .writeHostUnreachable: .cannotConnectToHost
        default: .other
        }
    }

    private static func reason(for error: NIOConnectionError) -> Reason {
        let lookupFailed = error.dnsAError != nil || error.dnsAAAAError != nil
        if lookupFailed && error.connectionErrors.isEmpty { return .cannotFindHost }
        // Each address was tried: the reason is what the attempts ran into, refused unless they timed out.
        let reasons = error.connectionErrors.map { Self(asyncHTTPClientError: $0.error).reason }
        if !reasons.isEmpty, reasons.allSatisfy({ $0 == .timedOut }) { return .timedOut }
        return .cannotConnectToHost
    }
}
