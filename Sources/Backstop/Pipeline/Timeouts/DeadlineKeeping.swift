import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport that ends an exchange by itself, body included, when a time limit passes or when
/// asked from outside: a call's total timeout then needs no task of its own (``CallDeadline``),
/// and a hedged call's first attempt can run in the call's own task.
///
/// ``StreamingURLSessionTransport`` cancels its `URLSessionDataTask`; BackstopAsyncHTTPClient's
/// `HTTPClientTransport` reads the whole body within `maximumBytes` through AsyncHTTPClient's
/// delegate API, whose deadline and cancellation cover the body too.
package protocol DeadlineKeeping: ClientTransport {
    /// Sends `request` as ``ClientTransport/send(_:body:baseURL:operationID:)`` does, and fails
    /// (with any error) once `timeout` has passed, while the head or the body is read, or once
    /// `cancellation` is cancelled. With no `timeout`, the transport's own limit holds.
    ///
    /// A transport that reads the body before it returns reads no more than `maximumBytes` of it,
    /// and throws `.client` ``ClientFailure/Reason/responseTooLarge`` past them, as the pipeline's
    /// own reading does.
    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, within timeout: Duration?,
        upTo maximumBytes: Int, cancelledBy cancellation: ExchangeCancellation?
    ) async throws -> (HTTPResponse, HTTPBody?)
}
