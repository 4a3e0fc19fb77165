import BackstopJSON
import Foundation
import HTTPTypes

/// How a backend wraps its responses: which statuses carry envelopes, and how to read one.
///
/// ``EnvelopeContract`` describes most backends with paths. For shapes that paths cannot
/// express, conform your own type; ``unwrap(_:from:response:decoder:throwing:)`` works the
/// same for both. A conformance only reads the envelope — status checks, payload decoding,
/// repairs and errors are shared — and describes itself, since a body that is not JSON at
/// all is reported with what the contract expected:
///
/// ```swift
/// struct LegacyContract: ResponseContract {
///     var description: String { "errno at $.errno, 0 is success, payload at $.body" }
///
///     func envelope(of body: ParsedJSON?, status: HTTPResponse.Status) throws(DecodingFailure) -> Envelope {
///         guard let body, case .integer(let errno)? = body.value(at: ["errno"]) else {
///             throw DecodingFailure(.code, at: "errno", .missing, in: body)
///         }
///         if errno == 0 { return Envelope(.success(payloadAt: "body")) }
///         var message: String?
///         if case .string(let text)? = body.value(at: ["errstr"]) { message = text }
///         return Envelope(.failure(code: RawServerCode(Int(errno)), message: message))
///     }
/// }
/// ```
public protocol ResponseContract: Sendable, CustomStringConvertible {
    /// The HTTP statuses whose bodies are read as envelopes; any other is an HTTP error.
    /// `200..<300` unless a contract says otherwise.
    var acceptedStatuses: Range<Int> { get }

    /// Reads the envelope of a response whose status is accepted.
    ///
    /// - Parameters:
    ///   - body: The parsed body, or `nil` when it is empty.
    ///   - status: The response's status, one of ``acceptedStatuses``.
    /// - Throws: A ``DecodingFailure`` naming the part of the contract the body lacks.
    func envelope(of body: ParsedJSON?, status: HTTPResponse.Status) throws(DecodingFailure) -> Envelope

    /// The business code and message in the body of an HTTP error, as far as it has them.
    ///
    /// By default, those of ``envelope(of:status:)`` when it reads a failure.
    func errorDetails(in body: ParsedJSON, status: HTTPResponse.Status) -> (code: RawServerCode?, message: String?)
}

extension ResponseContract {
    public var acceptedStatuses: Range<Int> { 200..<300 }

    public func errorDetails(in body: ParsedJSON, status: HTTPResponse.Status) -> (code: RawServerCode?, message: String?) {
        guard case .failure(let code, let message)? = try? envelope(of: body, status: status).outcome else { return (nil, nil) }
        return (code, message)
    }

    /// Unwraps a response: its payload, or the error it amounts to.
    ///
    /// The body is parsed once; on success only the payload is decoded, on failure nothing
    /// is. Repairs (of the envelope and of the payload, paths rooted at the body) are
    /// returned and sent to `decoder`'s reporter.
    ///
    /// ```swift
    /// let group = try contract.unwrap(StudyGroup.self, from: data, response: response,
    ///                                 throwing: AppError<StudyGroupCode>.self).value
    /// ```
    ///
    /// - Parameters:
    ///   - type: The payload's type; ``NoPayload`` for endpoints that return none, an
    ///     `Optional` for payloads that may be absent or `null`.
    ///   - body: The body's bytes as received.
    ///   - response: The response's status and header fields.
    ///   - decoder: Decodes the payload; its policy, strategies and reporter apply.
    ///   - errorType: The error to throw, which says how business codes are classified.
    /// - Throws: ``APIError/http(_:)`` for a status outside ``acceptedStatuses`` (with the
    ///   envelope's code and message when it has them), ``APIError/decoding(_:)`` for a body
    ///   that breaks the contract or a payload that cannot be decoded, and
    ///   ``APIError/server(_:)`` for a business failure.
    public func unwrap<Payload: Decodable, General, Module>(
        _ type: Payload.Type,
        from body: Data,
        response: HTTPResponse,
        decoder: ResilientJSONDecoder = ResilientJSONDecoder(),
        throwing errorType: APIError<General, Module>.Type
    ) throws(APIError<General, Module>) -> DecodingReport<Payload> {
        var repairs: [Repair] = []
        let value = try unwrap(type, from: body, parsed: nil, response: response, decoder: decoder, repairs: &repairs, throwing: errorType)
        return DecodingReport(value: value, repairs: repairs)
    }

    /// ``unwrap(_:from:response:decoder:throwing:)`` of a body that may already be parsed:
    /// `parsed`, when given, must be `body` parsed with `decoder`'s policy. The repairs are
    /// appended to `repairs` rather than returned in a ``DecodingReport``, whose type an
    /// unspecialized caller would look up on every call.
    func unwrap<Payload: Decodable, General, Module>(
        _ type: Payload.Type,
        from body: Data,
        parsed: ParsedJSON?,
        response: HTTPResponse,
        decoder: ResilientJSONDecoder,
        repairs: inout [Repair],
        throwing errorType: APIError<General, Module>.Type
    ) throws(APIError<General, Module>) -> Payload {
        let status = response.status
        guard acceptedStatuses.contains(status.code) else {
            var failure = HTTPFailure(status: status, headerFields: response.headerFields, body: body)
            if let json = parsed ?? (try? parse(body, decoder: decoder)) {
                (failure.code, failure.message) = errorDetails(in: json, status: status)
            }
            throw .http(failure)
        }
        // 204 and 205 have no body by definition, so there is no envelope to read.
        if status == .noContent || status == .resetContent {
            do {
                return try Self.absent(type, at: .root, because: "\(status.code) has no content", excerpt: "")
            } catch {
                throw .decoding(error)
            }
        }

        let json: ParsedJSON?
        let envelope: Envelope
        do {
            if let parsed { json = parsed } else { json = try parse(body, decoder: decoder) }
            envelope = try self.envelope(of: json, status: status)
        } catch {
            throw .decoding(error)
        }
        let envelopeRepairs = (json?.parsingRepairs ?? []) + envelope.repairs
        if !envelopeRepairs.isEmpty {
            decoder.reporter?.report(envelopeRepairs, decoding: Envelope.self)
            repairs += envelopeRepairs
        }

        switch envelope.outcome {
        case .failure(let code, let message):
            throw .server(ServerError(code: code, message: message))
        case .success(let path):
            do {
                return try Self.payload(type, at: path, in: json, repairs: &repairs)
            } catch {
                throw .decoding(error)
            }
        }
    }

    /// The parsed body; `nil` when it is empty or only whitespace.
    private func parse(_ body: Data, decoder: ResilientJSONDecoder) throws(DecodingFailure) -> ParsedJSON? {
        guard !JSONScanner.isBlank(body) else { return nil }
        do {
            return try ParsedJSON(body, decoder: decoder)
        } catch {
            var detail = "expected \(self)"
            if case DecodingError.dataCorrupted(let context) = error, let parseError = context.underlyingError {
                detail = "\(parseError); " + detail
            }
            throw DecodingFailure(.body, at: "$", .notJSON, detail: detail, excerpt: OneLine.excerpt(of: body))
        }
    }

    private static func payload<Payload: Decodable>(
        _ type: Payload.Type, at path: EnvelopePath, in json: ParsedJSON?, repairs: inout [Repair]
    ) throws(DecodingFailure) -> Payload {
        // Compared before cast: casting to an unspecialized `Payload` looks up `Payload?`.
        if Payload.self == NoPayload.self, let none = NoPayload() as? Payload { return none }
        guard let json else {
            return try absent(type, at: path, because: "the body is empty", excerpt: "")
        }
        if json.kind(at: path.members) == .missing {
            return try absent(type, at: path, because: nil, excerpt: DecodingFailure.excerpt(of: json))
        }
        do {
            return try json.decode(type, at: path.members, repairs: &repairs)
        } catch {
            throw DecodingFailure(decoding: error, payloadAt: path, excerpt: DecodingFailure.excerpt(of: json))
        }
    }

    /// The value of a payload type that allows absence, or the failure of one that does not.
    private static func absent<Payload>(
        _ type: Payload.Type, at path: EnvelopePath, because reason: String?, excerpt: String
    ) throws(DecodingFailure) -> Payload {
        if let absentType = type as? any AbsentPayload.Type, let value = absentType.absent as? Payload {
            return value
        }
        throw DecodingFailure(.payload, at: path.jsonPath, .missing, detail: reason, excerpt: excerpt)
    }
}

/// Payload types for which "no payload" is a value.
private protocol AbsentPayload {
    static var absent: Self { get }
}

extension Optional: AbsentPayload {
    fileprivate static var absent: Self { nil }
}

extension NoPayload: AbsentPayload {
    fileprivate static var absent: Self { NoPayload() }
}
