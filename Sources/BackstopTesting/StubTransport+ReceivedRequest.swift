import Foundation
import HTTPTypes

extension StubTransport {
    /// A request as the transport received it, for a test's assertions.
    public struct ReceivedRequest: Sendable, Equatable {
        /// The request's method.
        public var method: HTTPRequest.Method
        /// The path and query relative to the base URL, percent-encoded, as sent: `/b/account?page=2`.
        public var path: String
        /// The request's header fields, `Authorization` included.
        public var headerFields: HTTPFields
        /// The request's body, read whole; empty when it had none.
        public var body: Data
        /// The client's base URL.
        public var baseURL: URL
        /// The call's operation name, as the client named it.
        public var operationID: String
    }
}
