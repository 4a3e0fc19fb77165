import Foundation
import OpenAPIRuntime

/// A request that got no HTTP response: the network, DNS, TLS or the caller stopped it.
public struct TransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in the few kinds an app handles differently.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The device has no usable network.
        case offline
        /// No answer came within the time the request or the call was given.
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
        /// Anything else; ``TransportFailure/underlying`` says what.
        case other
    }

    /// What went wrong.
    public var reason: Reason
    /// The error the networking stack threw, such as a `URLError`, when there was one.
    public var underlying: UnderlyingError?

    /// A failure for this reason.
    ///
    /// - Parameters:
    ///   - reason: What went wrong.
    ///   - underlying: The error the networking stack threw, if any.
    public init(_ reason: Reason, underlying: (any Error)? = nil) {
        self.reason = reason
        self.underlying = underlying.map(UnderlyingError.init)
    }

    /// Classifies an error thrown by a networking stack, keeping it as ``underlying``.
    ///
    /// Understands `URLError` (and `NSError`s in its domain), `CancellationError`, `POSIXError`
    /// codes, and a `TransportFailure` thrown as it is, such as by the transport of the
    /// `BackstopAsyncHTTPClient` product, which classifies AsyncHTTPClient's and SwiftNIO's
    /// errors by value; anything else is ``Reason/other``. A connection closed mid-body on
    /// URLSession on Linux comes as `NSURLErrorUnknown` with libcurl's "transfer closed with …"
    /// message, the one case read from an error's text, and is ``Reason/connectionLost``. An
    /// OpenAPI `ClientError` is looked through: the error it wraps is classified and kept.
    /// Clients that know their stack better pass the reason themselves with ``init(_:underlying:)``.
    public init(_ error: any Error) {
        let error = Self.unwrapped(error)
        if let failure = error as? TransportFailure {
            self = failure
        } else {
            self.init(Self.reason(for: error), underlying: error)
        }
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
        return .other
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

    /// The reason an errno gives, for transports that read errnos out of their own errors.
    package static func reason(forPOSIX code: Int32) -> Reason? {
        switch code {
        case ETIMEDOUT: .timedOut
        case ECONNREFUSED, EHOSTUNREACH, EHOSTDOWN: .cannotConnectToHost
        case ECONNRESET, ECONNABORTED, EPIPE, ENOTCONN: .connectionLost
        case ENETUNREACH, ENETDOWN: .offline
        case ECANCELED: .cancelled
        default: nil
        }
    }
}
