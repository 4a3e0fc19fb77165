import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport that ends an exchange by itself when a time limit passes: a call's total timeout
/// then needs no task of its own (``CallDeadline``).
///
/// AsyncHTTPClient's `execute(_:timeout:)` keeps such a limit up to the response's head only,
/// and lets go of it there: the pipeline then reads the body in a task the deadline cancels.
/// ``StreamingURLSessionTransport`` keeps it to the body's last byte, by cancelling its
/// `URLSessionDataTask`: the body is read in the caller's task.
package protocol DeadlineKeeping: ClientTransport {
    /// Whether the limit also ends the body's reading, not only the wait for the head.
    var keepsDeadlineThroughBody: Bool { get }

    /// Sends `request` as ``ClientTransport/send(_:body:baseURL:operationID:)`` does, and fails
    /// (with any error) once `timeout` has passed before the response's head arrived; when
    /// ``keepsDeadlineThroughBody``, reading the body fails too once `timeout` has passed.
    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, within timeout: Duration
    ) async throws -> (HTTPResponse, HTTPBody?)
}
