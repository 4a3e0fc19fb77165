import Foundation
import OpenAPIRuntime

/// A request that got no HTTP response: the network, DNS, TLS or the caller stopped it.
public struct TransportFailure: Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in the few kinds an app handles differently.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The device has no usable network.
        case offline
        case timedOut
        /// The caller (or its task) cancelled the request.
        case cancelled
        /// The host name could not be resolved.
        case cannotFindHost
        /// The host was found but refused or did not answer the connection.
        case cannotConnectToHost
        /// An open connection dropped mid-request.
        case connectionLost
        /// The TLS handshake or the server's certificate failed.
        case tlsFailure
        case other
    }

    public var reason: Reason
    /// The error the networking stack threw, such as a `URLError`, when there was one.
    public var underlying: UnderlyingError?

    public init(_ reason: Reason, underlying: (any Error)? = nil) {
        self.reason = reason
        self.underlying = underlying.map(UnderlyingError.init)
    }

    /// Classifies an error thrown by a networking stack, keeping it as ``underlying``.
    ///
    /// Understands `URLError` (and `NSError`s in its domain), `CancellationError`,
    /// `POSIXError` codes, SwiftNIO's `IOError` by its errno (111 is a refused
    /// connection), and by name the timeouts, closed connections and TLS errors of
    /// AsyncHTTPClient and SwiftNIO; anything else is ``Reason/other``. A connection closed
    /// mid-body is ``Reason/connectionLost`` on both transports: SwiftNIO's `HTTPParserError`
    /// at an unexpected end of stream, and URLSession on Linux's `NSURLErrorUnknown` with
    /// libcurl's "transfer closed with …" message. An OpenAPI
    /// `ClientError` is looked through: the error it wraps is classified and kept. Clients
    /// that know their stack better pass the reason themselves with ``init(_:underlying:)``.
    public init(_ error: any Error) {
        let error = Self.unwrapped(error)
        self.init(Self.reason(for: error), underlying: error)
    }

    /// The transport's own error inside OpenAPI's wrappers.
    static func unwrapped(_ error: any Error) -> any Error {
        var error = error
        // Each middleware of a generated client may wrap it once more.
        while let wrapper = error as? ClientError { error = wrapper.underlyingError }
        return error
    }

    public var description: String {
        underlying.map { "\(reason.rawValue) → \($0)" } ?? reason.rawValue
    }

    private static func reason(for error: any Error) -> Reason {
        if error is CancellationError { return .cancelled }
        if let error = error as? URLError { return reason(forURLError: error as NSError) }
        if let error = error as? POSIXError { return reason(forPOSIX: error.code.rawValue) ?? .other }
        let bridged = error as NSError
        if bridged.domain == NSURLErrorDomain { return reason(forURLError: bridged) }
        if bridged.domain == NSPOSIXErrorDomain, let reason = reason(forPOSIX: Int32(truncatingIfNeeded: bridged.code)) {
            return reason
        }
        if let code = nioErrno(of: error), let reason = reason(forPOSIX: code) { return reason }
        return reasonByName(of: error)
    }

    private static func reason(forURLError error: NSError) -> Reason {
        // URLSession on Linux reports libcurl's "transfer closed with 101 bytes remaining to
        // read" (or "… with outstanding read data remaining") as NSURLErrorUnknown: curl's
        // message is all that tells a connection closed mid-body from any other failure.
        if error.code == URLError.Code.unknown.rawValue, error.localizedDescription.hasPrefix("transfer closed with") {
            return .connectionLost
        }
        return reason(forURLErrorCode: error.code)
    }

    private static func reason(forURLErrorCode code: Int) -> Reason {
        typealias Code = URLError.Code
        switch code {
        case Code.notConnectedToInternet.rawValue, Code.dataNotAllowed.rawValue,
             Code.internationalRoamingOff.rawValue, Code.callIsActive.rawValue:
            return .offline
        case Code.timedOut.rawValue:
            return .timedOut
        case Code.cancelled.rawValue, Code.userCancelledAuthentication.rawValue:
            return .cancelled
        case Code.cannotFindHost.rawValue, Code.dnsLookupFailed.rawValue:
            return .cannotFindHost
        case Code.cannotConnectToHost.rawValue:
            return .cannotConnectToHost
        case Code.networkConnectionLost.rawValue:
            return .connectionLost
        case Code.secureConnectionFailed.rawValue, Code.serverCertificateHasBadDate.rawValue,
             Code.serverCertificateUntrusted.rawValue, Code.serverCertificateHasUnknownRoot.rawValue,
             Code.serverCertificateNotYetValid.rawValue, Code.clientCertificateRejected.rawValue,
             Code.clientCertificateRequired.rawValue:
            return .tlsFailure
        default:
            return .other
        }
    }

    private static func reason(forPOSIX code: Int32) -> Reason? {
        switch code {
        case ETIMEDOUT: .timedOut
        case ECONNREFUSED, EHOSTUNREACH, EHOSTDOWN: .cannotConnectToHost
        case ECONNRESET, ECONNABORTED, EPIPE, ENOTCONN: .connectionLost
        case ENETUNREACH, ENETDOWN: .offline
        case ECANCELED: .cancelled
        default: nil
        }
    }

    /// The errno of SwiftNIO's `IOError`, read through reflection: its `error` is `.errno(CInt)`.
    private static func nioErrno(of error: any Error) -> Int32? {
        guard String(reflecting: type(of: error)).hasSuffix(".IOError") else { return nil }
        for child in Mirror(reflecting: error).children where child.label == "error" {
            for payload in Mirror(reflecting: child.value).children where payload.label == "errno" {
                return payload.value as? Int32
            }
        }
        return nil
    }

    // Backstop does not link AsyncHTTPClient or NIO, so their errors are recognised by the
    // names they print: `HTTPClientError.readTimeout`, `ChannelError.connectTimeout(…)`,
    // `NIOSSLError…`. A client built on them should still pass the reason it knows.
    private static func reasonByName(of error: any Error) -> Reason {
        let typeName = String(reflecting: type(of: error))
        if typeName.contains("SSL") || typeName.contains("TLS") { return .tlsFailure }
        let text = String(describing: error)
        if ["connectTimeout", "readTimeout", "writeTimeout", "deadlineExceeded"].contains(where: text.contains) {
            return .timedOut
        }
        if text.contains("cancelled") { return .cancelled }
        if ["remoteConnectionClosed", "ioOnClosedChannel", "connectionReset"].contains(where: text.contains) {
            return .connectionLost
        }
        // NIO's HTTP parser at end of stream before the response was complete: its `invalidEOFState`.
        if typeName.hasSuffix(".HTTPParserError"), text == "stream ended at an unexpected time" { return .connectionLost }
        if typeName.hasSuffix("NIOConnectionError") { return .cannotConnectToHost }
        return .other
    }
}
