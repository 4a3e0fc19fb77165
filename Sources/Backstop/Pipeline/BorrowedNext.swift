import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A generated client's `next`, which is not `@escaping`, lent to the stages for one call of
/// ``PipelineMiddleware``.
///
/// `withoutActuallyEscaping` traps if anything still holds `next` when the call returns. The
/// stages hold this value instead, and ``revoke()`` lets go of `next` before the call returns.
/// Nothing calls it after that: the call's stages run in its task or in children it awaits,
/// and a hedged call whose send is borrowed awaits its losing requests before it returns
/// (``CallContext/sendIsBorrowed``). Were something to call it late all the same, it would get
/// a `CancellationError`, not a closure whose caller has returned.
struct BorrowedNext: Sendable {
    typealias Next = @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)

    private let next: LockedValue<Next?>

    init(_ next: @escaping Next) {
        self.next = LockedValue(next)
    }

    /// Sends through `next`, unless it was given back.
    func send(_ request: HTTPRequest, _ body: HTTPBody?, _ baseURL: URL) async throws -> (HTTPResponse, HTTPBody?) {
        guard let next = next.withLock({ $0 }) else { throw CancellationError() }
        return try await next(request, body, baseURL)
    }

    /// Lets go of `next`: the call that lent it is about to return.
    func revoke() {
        next.withLock { $0 = nil }
    }
}
