import BackstopJSON

/// Why an OpenAPI document cannot serve as a contract, thrown when an ``OpenAPIContract`` is
/// made, never at a call.
///
/// `location` says where, `detail` why: `#/components/schemas/Category: fallback "other" is
/// not one of the enum's values (food, drink)`.
public struct OpenAPIContractError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Problem: String, Sendable, Hashable, CaseIterable {
        /// The file or resource could not be read.
        case unreadable
        /// The bytes are not a YAML or JSON OpenAPI 3.0 or 3.1 document.
        case notOpenAPI
        /// A `$ref` names no component of the document (or one outside it).
        case unresolvedReference
        /// A schema says something the repairs cannot follow (a fallback that is not one of
        /// its enum's values, a `default` of the wrong type, a `$ref` cycle with no property
        /// or item between, so that no value fits it).
        case invalidSchema
        /// The document is larger than it is written: a YAML document whose aliases would expand
        /// it past ``OpenAPIContract/maximumAliasExpansion`` nodes (a "billion laughs" bomb).
        case tooLarge
    }

    /// What kind of problem it is.
    public var problem: Problem
    /// Where: a file, or a JSON pointer into the document (`#/components/schemas/Category`),
    /// or an operation's response (`getGroup 200 application/json`); as the document writes
    /// it, unescaped.
    public var location: String
    /// Why, in a developer's words; the document's text in it is unescaped.
    public var detail: String

    /// A problem with a document.
    ///
    /// - Parameters:
    ///   - problem: What kind of problem it is.
    ///   - location: Where in the document, or which file.
    ///   - detail: Why, in a developer's words.
    public init(_ problem: Problem, at location: String, _ detail: String) {
        self.problem = problem
        self.location = location
        self.detail = detail
    }

    /// `location: detail` on one line, with control and bidirectional characters (which a
    /// document's names and the parser's quotes of it may hold) escaped once, so it can be
    /// printed or logged as it is.
    public var description: String { UntrustedText.escaped("\(location): \(detail)") }
}
