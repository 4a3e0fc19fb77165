import Backstop
import BackstopJSON
import Foundation

/// An app's OpenAPI document as the contract a generated client's JSON responses are repaired
/// against, with the rules of `ResilientJSONDecoder`.
///
/// Made once, at set-up, from the document the generator reads (OpenAPI 3.0 or 3.1, YAML or
/// JSON); every response schema is compiled then, so a document it cannot use throws an
/// ``OpenAPIContractError`` there, never at a call: a `$ref` cycle with no property or item
/// between, or a YAML document whose aliases would expand it past
/// ``maximumAliasExpansion``. Compiling uses the same stack however long the document's chains
/// of components, so a contract may be made on any thread. Then immutable, and shared by every call:
///
/// ```swift
/// // fragment: `Client` and `Servers` are the generator's, `backendB` and `AppCode` the app's.
/// let openAPI = try OpenAPIContract(resource: "openapi", in: .main)
/// let client = Client(
///     serverURL: try Servers.Server1.url(),
///     transport: StreamingURLSessionTransport(),
///     middlewares: [PipelineMiddleware(pipeline, contract: backendB, generalCodes: AppCode.self, repairing: openAPI)]
/// )
/// ```
///
/// The rules, for each JSON response of an operation (by operation ID, status, then `2XX`-style
/// ranges, then `default`; `application/json` or any `+json` type). An operation without an
/// `operationId` goes by the ID swift-openapi-generator gives it and a generated client passes:
/// its method in lower case, then its path (`get/pets/{petId}`).
/// - A clean body is handed on as the same bytes, never re-encoded; a repaired one is encoded once.
/// - Byte-level dirt the policy accepts (trailing commas, raw control characters, ill-formed
///   Unicode, `NaN`) is repaired and reported as the decoder reports it.
/// - `"42"` where an integer or number is expected becomes `42` (`DecodingPolicy.numbersFromStrings`);
///   `1`, `0`, `"true"` where a boolean is (`DecodingPolicy.boolsFromNumbersAndStrings`);
///   a number where a string is becomes its text (`DecodingPolicy.stringsFromNumbers`).
/// - A required property that is absent or `null` (and not nullable) takes the schema's `default`,
///   else its type's default (`0`, `false`, `""`, `[]`, `{}` for an object whose properties all
///   default) (`DecodingPolicy.defaultMissingValues`, `DecodingPolicy.defaultNullValues`).
/// - A string enum's unknown value becomes its fallback: the one the app names in `enumFallbacks`
///   (by component schema name), else the schema's `x-backstop-fallback`, else its own `unknown`
///   or `other` member. Without one: `null`'d away for an optional property
///   (`DecodingPolicy.nilInvalidOptionals`), else dropped from its list
///   (`DecodingPolicy.dropInvalidElements`), else the call fails.
/// - A `oneOf` with a `discriminator` is written as the alternative its discriminator property
///   names, as the generated code decodes it (the mapping's values, else each alternative's
///   component name or `$ref`); a value whose discriminator is missing or names none is a value
///   that does not fit. Without a discriminator, a value is the first alternative it fits as it
///   is, else the one written with the fewest repairs (the first of those).
/// - `format: int32` and `format: float` are read as the generated `Int32` and `Float`: a
///   number they cannot hold is a value that does not fit.
/// - Any other value that does not fit is handled the same way: optional properties removed,
///   list elements dropped, else a `DecodingFailure` naming the JSON path.
/// - A required property counts once however often its key is written: a key written twice
///   never stands in for a missing one.
/// - A `format: date-time` string with a space for `T`, no zone (read as UTC), fractional
///   seconds, or epoch seconds (a number or a string of digits) becomes RFC 3339 as
///   swift-openapi-runtime's default `ISO8601DateTranscoder` reads it: `2024-05-01T10:00:00Z`.
/// - Every change is a `Repair` whose path is rooted at the body (`$.data[2].category`)
///   and whose `expected` names the schema (`Category`, or the JSON type).
public struct OpenAPIContract: ResponseRepairing {
    /// The vendor extension a schema names its enum's fallback with: `x-backstop-fallback: other`.
    public static let fallbackExtension = "x-backstop-fallback"

    /// How many nodes a YAML document's aliases may add to it when they are read as the nodes
    /// they name: as many as the document has, and at least this many.
    ///
    /// A document whose aliases add more (nine levels of nine aliases add 387 million) is
    /// refused as ``OpenAPIContractError/Problem/tooLarge`` after one pass over its own nodes,
    /// before anything is expanded.
    public static let maximumAliasExpansion = 100_000

    /// Which repairs are made, as `ResilientJSONDecoder.policy` says them.
    public let policy: DecodingPolicy
    /// The compiled responses and schemas.
    let compiled: CompiledDocument

    /// A contract read from the document `data`: YAML or JSON, OpenAPI 3.0 or 3.1.
    ///
    /// - Parameters:
    ///   - data: The document's bytes.
    ///   - policy: Which repairs are made; `DecodingPolicy.lenient` makes them all.
    ///   - enumFallbacks: The fallback value of each string enum, by its component schema's name
    ///     (`["Category": "other"]`); first of the three ways a fallback is named.
    /// - Throws: An ``OpenAPIContractError`` naming where and why the document cannot be used.
    public init(data: Data, policy: DecodingPolicy = .lenient, enumFallbacks: [String: String] = [:]) throws(OpenAPIContractError) {
        self.policy = policy
        compiled = try CompiledDocument(data: data, source: "document", enumFallbacks: enumFallbacks)
    }

    /// A contract read from the document at `url`.
    ///
    /// - Parameters:
    ///   - url: A file URL of the document: YAML or JSON, OpenAPI 3.0 or 3.1.
    ///   - policy: Which repairs are made; `DecodingPolicy.lenient` makes them all.
    ///   - enumFallbacks: The fallback value of each string enum, by its component schema's name.
    /// - Throws: An ``OpenAPIContractError``; ``OpenAPIContractError/Problem/unreadable`` when the file cannot be read.
    public init(contentsOf url: URL, policy: DecodingPolicy = .lenient, enumFallbacks: [String: String] = [:]) throws(OpenAPIContractError)
    {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw OpenAPIContractError(.unreadable, at: url.lastPathComponent, "cannot be read: \(error.localizedDescription)")
        }
        self.policy = policy
        compiled = try CompiledDocument(data: data, source: url.lastPathComponent, enumFallbacks: enumFallbacks)
    }

    /// A contract read from a resource of `bundle`, such as the `openapi.yaml` the app ships.
    ///
    /// - Parameters:
    ///   - resource: The resource's name without its extension.
    ///   - fileExtension: The resource's extension, `yaml` unless told.
    ///   - bundle: The bundle holding it.
    ///   - policy: Which repairs are made; `DecodingPolicy.lenient` makes them all.
    ///   - enumFallbacks: The fallback value of each string enum, by its component schema's name.
    /// - Throws: An ``OpenAPIContractError``; ``OpenAPIContractError/Problem/unreadable`` when the bundle has no such resource.
    public init(
        resource: String, withExtension fileExtension: String = "yaml", in bundle: Bundle, policy: DecodingPolicy = .lenient,
        enumFallbacks: [String: String] = [:]
    ) throws(OpenAPIContractError) {
        guard let url = bundle.url(forResource: resource, withExtension: fileExtension) else {
            throw OpenAPIContractError(.unreadable, at: "\(resource).\(fileExtension)", "is not a resource of the bundle")
        }
        try self.init(contentsOf: url, policy: policy, enumFallbacks: enumFallbacks)
    }

    /// A contract of a document already compiled.
    init(compiled: CompiledDocument, policy: DecodingPolicy) {
        self.policy = policy
        self.compiled = compiled
    }

    /// Whether the document has an operation with this ID.
    public func describes(operationID: String) -> Bool {
        compiled.operations[operationID] != nil
    }

    /// `body` repaired against the schema of `operationID`'s response with `status` and `contentType`.
    ///
    /// - Parameters:
    ///   - body: The response body as received.
    ///   - operationID: The operation's ID in the document.
    ///   - status: The response's HTTP status code.
    ///   - contentType: The response's `Content-Type`; `nil` reads as `application/json`.
    /// - Returns: The same bytes and no repairs for a clean body; the repaired bytes and each
    ///   repair otherwise; the same bytes with `RepairedBody.undescribed` set when the
    ///   document describes no JSON body for that operation, status and content type.
    /// - Throws: A `DecodingFailure` of the payload naming the JSON path, when a value
    ///   cannot be repaired by the policy, or the body is not JSON.
    public func repair(_ body: Data, operationID: String, status: Int, contentType: String?) throws(DecodingFailure) -> RepairedBody {
        switch compiled.schema(operationID: operationID, status: status, contentType: contentType) {
        case .undescribed(let reason):
            return RepairedBody(body: body, undescribed: reason)
        case .noBody:
            return RepairedBody(body: body)
        case .schema(let root):
            return try SchemaRepair.repair(body, root: root, in: compiled, policy: policy)
        }
    }
}
