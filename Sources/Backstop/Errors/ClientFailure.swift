/// An error raised on the device, before a request was sent or after its response was read.
///
/// Backstop declares a few reasons; apps declare their own the same way:
///
/// ```swift
/// extension ClientFailure.Reason {
///     static let cartEmpty = Self("cartEmpty", code: 9001)
/// }
/// throw AppError<CartCode>.client(ClientFailure(.cartEmpty))
/// ```
public struct ClientFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the app stopped, named once; two reasons are equal when both name and code are.
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        /// A stable identifier, used in catalog keys (`client.<name>`) and analytics.
        public let name: String
        /// The `NSError` code of failures with this reason.
        public let code: Int

        /// A reason; declare each once, as a static constant, with a code no other reason uses.
        public init(_ name: String, code: Int) {
            self.name = name
            self.code = code
        }

        /// What the user entered cannot be sent, such as a malformed phone number.
        public static let invalidInput = Reason("invalidInput", code: 1)
        /// The device reported no network before the request was attempted.
        public static let noNetwork = Reason("noNetwork", code: 2)

        public var description: String { name }
    }

    /// Why the app stopped.
    public var reason: Reason
    /// A developer's note on what exactly failed; never shown to users.
    public var detail: String?
    /// The error that caused it, if any.
    public var underlying: UnderlyingError?
    /// How long until trying again can succeed, when the app knows: an open circuit says when
    /// it lets a call through; the recovery alert tells the user.
    public var retryAfter: Duration?

    /// A failure for this reason.
    ///
    /// - Parameters:
    ///   - reason: Why the app stopped.
    ///   - detail: A developer's note on what exactly failed; never shown to users.
    ///   - underlying: The error that caused it, if any.
    ///   - retryAfter: How long until trying again can succeed, when known.
    public init(_ reason: Reason, detail: String? = nil, underlying: (any Error)? = nil, retryAfter: Duration? = nil) {
        self.reason = reason
        self.detail = detail
        self.underlying = underlying.map(UnderlyingError.init)
        self.retryAfter = retryAfter
    }

    public var description: String {
        var text = reason.name
        if let detail { text += " → \(OneLine.text(detail, limit: 160))" }
        if let underlying { text += " → \(underlying)" }
        return text
    }
}
