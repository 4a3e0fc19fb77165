import Foundation

/// The original error behind a transport or client failure, kept whole but compared by
/// identity class rather than by value.
///
/// Two underlying errors are equal when they bridge to the same `NSError` domain and
/// code: `URLError(.timedOut)` equals any other timed-out `URLError`, whatever its URL or
/// user info. Associated values are ignored, so reducer tests can build the expected
/// error without reproducing every detail of the real one.
public struct UnderlyingError: Sendable, Hashable, CustomStringConvertible {
    /// The error as it was thrown.
    public let error: any Error
    /// Its `NSError` domain, such as `NSURLErrorDomain`.
    public let domain: String
    /// Its `NSError` code, such as `-1001` for a timed-out `URLError`.
    public let code: Int

    /// Keeps an error, reading its domain and code once.
    public init(_ error: any Error) {
        self.error = error
        let bridged = error as NSError
        domain = bridged.domain
        code = bridged.code
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.domain == rhs.domain && lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(domain)
        hasher.combine(code)
    }

    /// `domain code`, then the error's own text when it adds to that, on one line.
    public var description: String {
        let text = String(describing: error)
        // An NSError's text only repeats its domain and code.
        guard !text.hasPrefix("Error Domain=") else { return "\(domain) \(code)" }
        return "\(domain) \(code): \(OneLine.text(text, limit: 160))"
    }
}
