import BackstopJSON

/// What a contract read in a response body's envelope: success and where the payload is,
/// or a business failure.
public struct Envelope: Sendable, Hashable {
    /// What the envelope says of the request.
    public enum Outcome: Sendable, Hashable {
        /// The request succeeded; the payload, if the endpoint has one, is at `payloadAt`.
        case success(payloadAt: EnvelopePath)
        /// The server declined the request with a business code.
        case failure(code: RawServerCode, message: String?)
    }

    /// Success and where the payload is, or a business failure.
    public var outcome: Outcome
    /// Repairs made while reading the envelope (a code sent as `"200"`, say), with paths
    /// rooted at the body.
    public var repairs: [Repair]

    /// An envelope, as a custom ``ResponseContract`` makes one.
    public init(_ outcome: Outcome, repairs: [Repair] = []) {
        self.outcome = outcome
        self.repairs = repairs
    }
}
