import BackstopJSON
import HTTPTypes

/// A backend's envelope described with paths: where the code, message and payload are,
/// and what counts as success.
///
/// ```swift
/// // {"code":200,"msg":"OK","data":{…}}
/// let backendB = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))
///
/// // {"statusCode":200,"message":"success","result":{"data":{…}}}, and on failure
/// // {"statusCode":403,"result":{"message":"…"}}: the message paths are tried in order.
/// let backendC = EnvelopeContract(code: "statusCode", message: ["message", "result.message"],
///                                 payload: "result.data", success: .codes([200]))
/// ```
///
/// Envelope fields are read tolerantly under every decoding policy, by the coercion rules of
/// `DecodingPolicy.lenient`: a code sent as `"200"` is the code 200, and a flag sent as `1`
/// or `"true"` is `true`; each such coercion is reported as a repair. The policy governs the
/// payload.
public struct EnvelopeContract: ResponseContract, Hashable {
    /// What makes a response a success.
    public enum Success: Sendable, Hashable {
        /// The code is one of these; any other code is a business failure.
        case codes(Set<RawServerCode>)
        /// The boolean at this path is `true`; when it is `false`, the code says why.
        case flag(EnvelopePath)
        /// An accepted HTTP status alone, for backends without envelopes.
        case httpStatus
    }

    /// Where the business code is; needed unless success is ``Success/httpStatus``, where it
    /// only adds the code of HTTP errors.
    public var codePath: EnvelopePath?
    /// Where the message may be, tried in order; the first non-empty string wins.
    public var messagePaths: [EnvelopePath]
    /// Where the payload is on success.
    public var payloadPath: EnvelopePath
    /// What makes a response a success.
    public var success: Success
    public var acceptedStatuses: Range<Int>

    /// A contract that reads the envelope at these paths.
    ///
    /// - Parameters:
    ///   - code: Where the business code is; needed unless `success` is ``Success/httpStatus``.
    ///   - message: Where the message may be, tried in order.
    ///   - payload: Where the payload is on success; the whole body unless given.
    ///   - success: What makes a response a success.
    ///   - acceptedStatuses: The HTTP statuses whose bodies are read as envelopes; any other is an HTTP failure.
    public init(
        code: EnvelopePath? = nil,
        message: [EnvelopePath] = [],
        payload: EnvelopePath = .root,
        success: Success,
        acceptedStatuses: Range<Int> = 200..<300
    ) {
        codePath = code
        messagePaths = message
        payloadPath = payload
        self.success = success
        self.acceptedStatuses = acceptedStatuses
    }

    /// A backend without envelopes: a 2xx status is success and the body is the payload.
    public static let noEnvelope = EnvelopeContract(success: .httpStatus)

    public func envelope(of body: ParsedJSON?, status: HTTPResponse.Status) throws(DecodingFailure) -> Envelope {
        // Without an envelope, the status was accepted and that is all success means.
        if case .httpStatus = success { return Envelope(.success(payloadAt: payloadPath)) }

        guard let body else {
            throw DecodingFailure(.body, at: "$", .emptyBody, detail: "expected \(firstPartRead)", excerpt: "")
        }
        guard body.kind() == .object else {
            throw DecodingFailure(.body, at: .root, .wrongType, detail: "expected an object, found \(body.kind())", in: body)
        }
        var repairs: [Repair] = []
        let code: RawServerCode
        switch success {
        case .codes(let successCodes):
            code = try readCode(in: body, repairs: &repairs)
            if successCodes.contains(code) { return Envelope(.success(payloadAt: payloadPath), repairs: repairs) }
        case .flag(let path):
            if try readFlag(at: path, in: body, repairs: &repairs) {
                return Envelope(.success(payloadAt: payloadPath), repairs: repairs)
            }
            code = try readCode(in: body, repairs: &repairs)
        case .httpStatus:
            return Envelope(.success(payloadAt: payloadPath))
        }
        return Envelope(.failure(code: code, message: readMessage(in: body)), repairs: repairs)
    }

    public func errorDetails(in body: ParsedJSON, status: HTTPResponse.Status) -> (code: RawServerCode?, message: String?) {
        var ignored: [Repair] = []
        return ((try? readCode(in: body, repairs: &ignored)), readMessage(in: body))
    }

    /// `code at $.statusCode, message at $.message or $.result.message, payload at $.result.data, success when code is 200`
    public var description: String {
        var parts: [String] = []
        if let codePath { parts.append("code at \(codePath.jsonPath)") }
        if !messagePaths.isEmpty { parts.append("message at " + messagePaths.map(\.jsonPath).joined(separator: " or ")) }
        parts.append("payload at \(payloadPath.jsonPath)")
        switch success {
        case .codes(let codes):
            parts.append("success when code is " + codes.map(\.description).sorted().joined(separator: " or "))
        case .flag(let path):
            parts.append("success when \(path.jsonPath) is true")
        case .httpStatus:
            parts.append("success when the HTTP status is in \(acceptedStatuses.lowerBound)..<\(acceptedStatuses.upperBound)")
        }
        return parts.joined(separator: ", ")
    }

    /// What an envelope must have before anything else, to say what an empty body lacks.
    private var firstPartRead: String {
        if case .flag(let path) = success { return "success flag at \(path.jsonPath)" }
        return "code at \(codePath?.jsonPath ?? "$")"
    }

    private func readCode(in body: ParsedJSON, repairs: inout [Repair]) throws(DecodingFailure) -> RawServerCode {
        guard let codePath else {
            throw DecodingFailure(.code, at: .root, .missing, detail: "the contract names no code path", in: body)
        }
        // Most codes are whole numbers: read without building a `JSONValue`.
        if let number = body.wholeNumber(at: codePath.members) { return RawServerCode(number) }
        switch body.value(at: codePath.members) {
        case .integer(let number)?:
            if let value = Int(exactly: number) { return RawServerCode(value) }
        case .string(let text)? where !text.isEmpty:
            guard let (number, found) = body.coercedInteger(at: codePath.members) else { return RawServerCode(text) }
            repairs.append(Repair(path: codePath.jsonPath, expected: "Int", found: found, action: .coerced))
            return RawServerCode(number)
        case .string?:
            throw DecodingFailure(.code, at: codePath, .missing, detail: "the code is an empty string", in: body)
        case .null?:
            throw DecodingFailure(.code, at: codePath, .null, in: body)
        case nil:
            throw DecodingFailure(.code, at: codePath, .missing, in: body)
        default:
            break
        }
        throw DecodingFailure(
            .code, at: codePath, .wrongType,
            detail: "expected a whole number or a string, found \(body.kind(at: codePath.members))", in: body)
    }

    private func readFlag(at path: EnvelopePath, in body: ParsedJSON, repairs: inout [Repair]) throws(DecodingFailure) -> Bool {
        switch body.kind(at: path.members) {
        case .bool:
            return body.value(at: path.members) == .bool(true)
        case .null:
            throw DecodingFailure(.successFlag, at: path, .null, in: body)
        case .missing:
            throw DecodingFailure(.successFlag, at: path, .missing, in: body)
        case let kind:
            guard let (flag, found) = body.coercedBool(at: path.members) else {
                throw DecodingFailure(.successFlag, at: path, .wrongType, detail: "expected a boolean, found \(kind)", in: body)
            }
            repairs.append(Repair(path: path.jsonPath, expected: "Bool", found: found, action: .coerced))
            return flag
        }
    }

    private func readMessage(in body: ParsedJSON) -> String? {
        for path in messagePaths {
            if case .string(let text)? = body.value(at: path.members), !text.isEmpty { return text }
        }
        return nil
    }
}
