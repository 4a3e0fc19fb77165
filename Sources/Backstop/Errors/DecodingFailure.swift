import BackstopJSON

/// A body that broke its contract or a payload that could not be decoded.
///
/// Says which part is wrong, where, and how, and keeps the start of the body:
/// `code at $.statusCode is missing; body: <!DOCTYPE html><html>…`.
public struct DecodingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The part of the response that is wrong.
    public enum Part: String, Sendable, Hashable, CaseIterable {
        /// The body as a whole: empty, not JSON, or not the JSON kind the contract reads.
        case body
        /// The business code.
        case code
        /// The boolean field that says whether the request succeeded.
        case successFlag
        /// The payload, or a value inside it.
        case payload
    }

    /// What is wrong with the part.
    public enum Problem: String, Sendable, Hashable, CaseIterable {
        /// The body had no bytes, where the contract reads one.
        case emptyBody
        /// The body is not valid JSON.
        case notJSON
        /// A required key is absent.
        case missing
        /// A required value is `null`.
        case null
        /// The value is of another JSON kind than the type reads.
        case wrongType
        /// Present and of the right kind, but not a value the type accepts.
        case invalidValue
    }

    /// Which part of the response is wrong.
    public var part: Part
    /// Where, as a JSON path rooted at the body (`$.result.data.items[2].id`).
    public var path: String
    /// What is wrong with it.
    public var problem: Problem
    /// A developer's account of what was expected and found; never shown to users.
    public var detail: String?
    /// The start of the body, on one line: when Backstop makes it, control and bidirectional
    /// characters are escaped (`\u{1B}`), as in every text it writes for engineers.
    public var excerpt: String

    /// A decoding failure.
    ///
    /// - Parameters:
    ///   - part: Which part of the response is wrong.
    ///   - path: Where, as a JSON path rooted at the body.
    ///   - problem: What is wrong with it.
    ///   - detail: A developer's account of what was expected and found; never shown to users.
    ///   - excerpt: The start of the body, on one line.
    public init(_ part: Part, at path: String, _ problem: Problem, detail: String? = nil, excerpt: String) {
        self.part = part
        self.path = path
        self.problem = problem
        self.detail = detail
        self.excerpt = excerpt
    }

    /// `payload at $.result.data is missing (…); body: {"statusCode":200,…`
    public var description: String {
        var text = part == .body ? "body" : "\(partName) at \(UntrustedText.escaped(path))"
        text += " \(problemPhrase)"
        if let detail { text += " (\(OneLine.text(detail, limit: 200)))" }
        if !excerpt.isEmpty {
            text += "; body: \(excerpt)"
        } else if problem != .emptyBody {
            text += "; body is empty"
        }
        return text
    }

    private var partName: String {
        switch part {
        case .body: "body"
        case .code: "code"
        case .successFlag: "success flag"
        case .payload: "payload"
        }
    }

    private var problemPhrase: String {
        switch problem {
        case .emptyBody: "is empty"
        case .notJSON: "is not JSON"
        case .missing: "is missing"
        case .null: "is null"
        case .wrongType: "has the wrong type"
        case .invalidValue: "is invalid"
        }
    }
}
