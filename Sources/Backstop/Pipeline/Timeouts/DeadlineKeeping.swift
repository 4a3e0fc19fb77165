import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport that ends an exchange by itself when a time limit passes before the response's
/// head arrives: a call's total timeout then needs no task of its own (``CallDeadline``).
///
/// Only the head: the pipeline reads the body in a task the deadline cancels. AsyncHTTPClient's
/// `execute(_:timeout:)` keeps such a limit, and lets go of it once the head is in.
package protocol DeadlineKeeping: ClientTransport {
    /// Sends `request` as ``ClientTransport/send(_:body:baseURL:operationID:)`` does, and fails
    /// (with any error) once `timeout` has passed and the response's head has not arrived.
    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, within timeout: Duration
    ) async throws -> (HTTPResponse, HTTPBody?)
}
