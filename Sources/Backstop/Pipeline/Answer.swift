import BackstopJSON
import Foundation
import HTTPTypes

/// One attempt's response with its body read whole, parsed at most once, and the role of its
/// business code, which every stage that acts on codes reads from here.
struct Answer: Sendable {
    var response: HTTPResponse
    var body: Data
    /// The body as the call's contract reads it; `nil` when empty, not JSON, or nobody needed it.
    var parsed: ParsedJSON?
    /// The role of the body's general code, if it has one.
    var role: ServerCodeRole?
}
