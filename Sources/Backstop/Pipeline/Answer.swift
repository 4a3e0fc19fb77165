import BackstopJSON
import Foundation
import HTTPTypes

/// One attempt's response with its body read whole, parsed at most once, and the role of its
/// business code, which every stage that acts on codes reads from here.
struct Answer: Sendable {
    let response: HTTPResponse
    /// ``response``'s status, read once: HTTPTypes parses it from its field on every read, and
    /// the stages read it up to nine times a call.
    let status: HTTPResponse.Status
    let body: Data
    /// The body as the call's contract reads it; `nil` when empty, not JSON, or nobody needed it.
    var parsed: ParsedJSON?
    /// The role of the body's general code, if it has one.
    var role: ServerCodeRole?
    /// Set when this answer is a saved one standing in for a failure (``SavedAnswers``).
    var saved: SavedAnswerServing?
    /// The save this answer makes once its entry point has read it as a success; `nil` when it
    /// is not to be saved.
    var pendingSave: PendingSave?

    init(response: HTTPResponse, body: Data) {
        self.response = response
        status = response.status
        self.body = body
    }
}
