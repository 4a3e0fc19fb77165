import BackstopJSON
import Foundation

/// A response body after a ``ResponseRepairing`` read it: the bytes to hand on, and the repairs.
public struct RepairedBody: Sendable, Hashable {
    /// The bytes the generated code decodes: the body as received when ``repairs`` is empty.
    public var body: Data
    /// Every change made to the body, each with its JSON path; empty for a clean body.
    public var repairs: [Repair]
    /// Why the body was passed on unread (no operation, status or content type of that name in
    /// the contract); `nil` when the contract describes the response.
    public var undescribed: String?

    /// A body and the repairs that made it.
    ///
    /// - Parameters:
    ///   - body: The bytes the generated code decodes.
    ///   - repairs: The changes made to the body as received.
    ///   - undescribed: Why the body was passed on unread, when it was.
    public init(body: Data, repairs: [Repair] = [], undescribed: String? = nil) {
        self.body = body
        self.repairs = repairs
        self.undescribed = undescribed
    }
}
