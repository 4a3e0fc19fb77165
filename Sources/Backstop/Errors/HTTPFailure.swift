import Foundation
import HTTPTypes

/// A response whose HTTP status the contract does not accept, such as a 503.
///
/// When the body is an envelope the contract can read, its business code and message
/// are kept too: a 401 carrying code 11001 still says "token expired".
public struct HTTPFailure: Sendable, Hashable, CustomStringConvertible {
    /// The status the contract did not accept.
    public var status: HTTPResponse.Status
    /// The response's header fields, `Retry-After` among them.
    public var headerFields: HTTPFields
    /// The body as received, for logs and bug reports; may be empty.
    public var body: Data
    /// The envelope's business code, when the body had one.
    public var code: RawServerCode?
    /// The envelope's message, when the body had one.
    public var message: String?

    /// A failure for this response.
    ///
    /// - Parameters:
    ///   - status: The status the contract did not accept.
    ///   - headerFields: The response's header fields.
    ///   - body: The body as received.
    ///   - code: The envelope's business code, when the body had one.
    ///   - message: The envelope's message, when the body had one.
    public init(
        status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data(),
        code: RawServerCode? = nil, message: String? = nil
    ) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.code = code
        self.message = message
    }

    /// `503 Service Unavailable → code 10503 "Down for maintenance"`, or the body's start.
    public var description: String {
        var text = "\(status.code)"
        if !status.reasonPhrase.isEmpty { text += " \(status.reasonPhrase)" }
        if let code {
            text += " → code \(code)"
            if let message { text += " \"\(OneLine.text(message, limit: 120))\"" }
        } else if let message {
            text += " → \"\(OneLine.text(message, limit: 120))\""
        } else if !body.isEmpty {
            text += " → body: \(OneLine.excerpt(of: body))"
        }
        return text
    }
}
