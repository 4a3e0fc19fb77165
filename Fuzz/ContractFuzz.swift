// libFuzzer entry for contracts: `ResponseContract.unwrap` on any body, status and header
// fields, for every kind of contract, payload and error type, in both policies. Whatever it
// throws is a typed `APIError` by construction; a crash, hang, leak or broken rule below is a bug.
//
// The input's first three bytes choose the case, the rest is the body:
//   byte 0: the HTTP status, `statuses[byte % count]`;
//   byte 1: bits 0-2 the contract, bit 3 `.strict` (else `.lenient`), bit 4 string codes
//           (else integer codes), bit 5 snake-case keys;
//   byte 2: bits 0-2 the payload type, bit 3 a JSON content type, bit 4 an HTML one,
//           bits 5-7 a Retry-After value (0: none).
// Missing bytes count as 0, so every input is a case.
import Backstop
import BackstopJSON
import Foundation

// MARK: Payloads: the property wrappers, an unknown-case enum, optionals, nesting.

private enum Category: String, Decodable, UnknownCaseRepresentable {
    case phone, audio, gift, unknown
    static var unknownCase: Category { .unknown }
}

private enum Role: Int, Decodable, UnknownCaseRepresentable {
    case member = 1
    case owner = 2
    case unknown = 0
    static var unknownCase: Role { .unknown }
}

private struct Product: Decodable {
    let id: Int
    let name: String
    let price: Double?
    @LenientScalar var inStock: Bool
    @DefaultIfAbsent var stock: Int
    let category: Category
    @LossyArray var tags: [String]
}

private struct Member: Decodable {
    @LenientScalar var id: Int
    let nickname: String?
    let role: Role?
}

private struct StudyGroup: Decodable {
    let id: Int
    let name: String
    let teamCode: String?
    @LenientScalar var memberCount: Int
    @LossyArray var members: [Member]
    @DefaultIfAbsent var labels: [String: String]
    let createdAt: Date?
}

// MARK: Codes: general codes with roles and module codes, as integers and as strings.

private enum GeneralCode: Int, ServerCode {
    case tokenExpired = 11001
    case signInRequired = 11004
    case maintenance = 10503
    case rateLimited = 10429
    case tooOld = 10426

    var role: ServerCodeRole? {
        switch self {
        case .tokenExpired: .tokenExpired
        case .signInRequired: .signInRequired
        case .maintenance: .maintenance
        case .rateLimited: .rateLimited
        case .tooOld: nil
        }
    }
}

private enum StudyGroupCode: Int, ServerCode {
    case wrongTeamCode = 11210005
    case classNotFound = 11210006
    /// Also a general code: general wins.
    case clashesWithGeneral = 11001
    case negative = -404
}

private enum StringGeneralCode: String, ServerCode {
    case sessionExpired = "E_SESSION"
    case numeric = "40001"

    var role: ServerCodeRole? { self == .sessionExpired ? .tokenExpired : nil }
}

private enum StringModuleCode: String, ServerCode {
    case outOfStock = "E_STOCK"
    case empty = ""
}

// MARK: Contracts

/// A contract paths cannot express: the outcome is the sign of `errno`, the payload's place
/// is named by the body's `kind` (any string, dots and emptiness included), and HTTP errors
/// read `error.code` and `error.text` on their own.
private struct LegacyContract: ResponseContract {
    var description: String { "errno at $.errno (0 or more is success), payload at $.<kind>" }
    var acceptedStatuses: Range<Int> { 200..<400 }

    func envelope(of body: ParsedJSON?, status: HTTPResponse.Status) throws(DecodingFailure) -> Envelope {
        guard let body, case .integer(let errno)? = body.value(at: ["errno"]) else {
            throw DecodingFailure(.code, at: "errno", .missing, in: body)
        }
        guard errno >= 0 else {
            var message: String?
            if case .string(let text)? = body.value(at: ["errstr"]) { message = text }
            return Envelope(.failure(code: RawServerCode(Int(clamping: errno)), message: message))
        }
        guard case .string(let kind)? = body.value(at: ["kind"]) else {
            throw DecodingFailure(.payload, at: "kind", .missing, detail: "no kind, so no payload", in: body)
        }
        return Envelope(.success(payloadAt: EnvelopePath(stringLiteral: kind)))
    }

    func errorDetails(in body: ParsedJSON, status: HTTPResponse.Status) -> (code: RawServerCode?, message: String?) {
        var code: RawServerCode?
        switch body.value(at: ["error", "code"]) {
        case .integer(let number)?: code = RawServerCode(Int(clamping: number))
        case .string(let text)?: code = RawServerCode(text)
        default: break
        }
        guard case .string(let text)? = body.value(at: ["error", "text"]) else { return (code, nil) }
        return (code, text)
    }
}

/// Shapes A, B and C of seed 001, a success flag, no envelope, the custom contract, and two
/// variations: more accepted statuses with string success codes, and HTTP-status success
/// that still reads codes from HTTP errors.
private let contracts: [any ResponseContract] = {
    var wide = EnvelopeContract(code: "code", message: ["msg", "error.msg"], payload: "data", success: .codes([200, 0, "OK"]))
    wide.acceptedStatuses = 200..<500
    return [
        EnvelopeContract(code: "statusCode", message: ["message"], payload: "result.data", success: .codes([200])),
        EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200])),
        EnvelopeContract(code: "statusCode", message: ["message", "result.message"], payload: "result.data", success: .codes([200])),
        EnvelopeContract(code: "errorCode", message: ["errorMessage"], payload: "data", success: .flag("success")),
        EnvelopeContract.noEnvelope,
        LegacyContract(),
        wide,
        EnvelopeContract(code: "error.code", message: ["error.message"], payload: "", success: .httpStatus),
    ]
}()

/// Common statuses first, then the edges: 1xx, 3xx, the ends of 2xx, and the largest.
private let statuses: [Int] = [
    200, 201, 204, 400, 401, 404, 429, 500, 503, 202, 205, 206, 299, 100, 304, 403,
    409, 422, 426, 502, 504, 300, 399, 499, 599, 999,
]

private let retryAfterValues = ["", "30", "0", "-1", "Wed, 21 Oct 2015 07:28:00 GMT", "99999999999999999999", "soon", "1.5"]

// MARK: Entry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContract(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: count)
    func choice(_ index: Int) -> Int { index < count ? Int(input[index]) : 0 }
    let body = count > 3 ? Data(input[3...]) : Data()

    var fields = HTTPFields()
    if choice(2) & 0x08 != 0 { fields[.contentType] = "application/json; charset=utf-8" }
    if choice(2) & 0x10 != 0 { fields.append(HTTPField(name: .contentType, value: "text/html")) }
    let retryAfter = retryAfterValues[choice(2) >> 5]
    if !retryAfter.isEmpty { fields[.retryAfter] = retryAfter }
    let response = HTTPResponse(status: .init(code: statuses[choice(0) % statuses.count]), headerFields: fields)

    let contract = contracts[choice(1) & 0x07]
    let log = RepairLog()
    var decoder = ResilientJSONDecoder(policy: choice(1) & 0x08 != 0 ? .strict : .lenient, reporter: log)
    if choice(1) & 0x20 != 0 { decoder.keyDecodingStrategy = .convertFromSnakeCase }
    decoder.dateDecodingStrategy = .iso8601

    let payload = choice(2) & 0x07
    if choice(1) & 0x10 != 0 {
        unwrap(
            payload, from: body, response: response, contract: contract, decoder: decoder, log: log,
            throwing: APIError<StringGeneralCode, StringModuleCode>.self)
    } else {
        unwrap(
            payload, from: body, response: response, contract: contract, decoder: decoder, log: log,
            throwing: APIError<GeneralCode, StudyGroupCode>.self)
    }
    return 0
}

private func unwrap<General, Module>(
    _ payload: Int, from body: Data, response: HTTPResponse, contract: any ResponseContract,
    decoder: ResilientJSONDecoder, log: RepairLog, throwing errorType: APIError<General, Module>.Type
) {
    func run<Payload: Decodable>(_ type: Payload.Type) {
        let result = Result { () throws(APIError<General, Module>) in
            try contract.unwrap(type, from: body, response: response, decoder: decoder, throwing: errorType)
        }
        check(result, contract: contract, response: response, body: body, log: log)
    }
    switch payload {
    case 0: run(Product.self)
    case 1: run([Product].self)
    case 2: run(Product?.self)
    case 3: run(NoPayload.self)
    case 4: run(StudyGroup.self)
    case 5: run(JSONValue.self)
    case 6: run([String: Int].self)
    default: run(Category.self)
    }
}

/// The rules every outcome keeps, then everything an app does with an error, so its
/// descriptions, messages, bridging and recovery see the same hostile values.
private func check<Payload, General, Module>(
    _ result: Result<DecodingReport<Payload>, APIError<General, Module>>,
    contract: any ResponseContract, response: HTTPResponse, body: Data, log: RepairLog
) {
    let accepted = contract.acceptedStatuses.contains(response.status.code)
    switch result {
    case .success(let report):
        guard accepted else { fatalError("unwrapped a payload from unaccepted status \(response.status.code)") }
        // The reporter hears every repair the report holds.
        guard log.repairs == report.repairs else { fatalError("the reporter heard \(log.repairs), the report holds \(report.repairs)") }
        guard report.repairs.allSatisfy({ $0.path.hasPrefix("$") }) else {
            fatalError("a repair path not rooted at the body: \(report.repairs)")
        }
        for repair in report.repairs { requireSafe(repair.description, "a repair's description") }
        _ = String(describing: report.value)
    case .failure(let error):
        if !accepted {
            // An unaccepted status is an HTTP error that keeps every byte and header it came with.
            guard case .http(let failure) = error, failure.status == response.status,
                failure.body == body, failure.headerFields == response.headerFields
            else { fatalError("status \(response.status.code) gave \(error)") }
        } else if response.status.code == 204 || response.status.code == 205 {
            guard case .decoding = error else { fatalError("\(response.status.code) gave \(error)") }
        }
        if case .decoding(let failure) = error {
            // A failure names where, from the body's root, and shows at most 120 characters of it.
            guard failure.path.hasPrefix("$") else { fatalError("a failure path not rooted at the body: \(failure)") }
            guard failure.excerpt.count <= 121 else { fatalError("an excerpt of \(failure.excerpt.count) characters: \(failure.excerpt)") }
        }
        requireSafe(error.description, "the error's description")
        requireSafe(error.nsError.userInfo[NSDebugDescriptionErrorKey] as? String ?? "", "NSError's debug description")
        _ = error.groupingIdentifier
        _ = error.role
        _ = error.serverMessage
        _ = error.nsError.userInfo.count
        requireSafe(error.userMessage(), "the user message", forUser: true)
        requireSafe(error.userMessage(locale: Locale(identifier: "zh-Hant-TW")), "the user message", forUser: true)
        _ = error.failureReason
        _ = error.recoverySuggestion
        _ = error.recoveryCategory
        if let alert = RecoveryPolicy.standard.alert(for: error) {
            requireSafe(alert.title, "an alert's title", forUser: true)
            requireSafe(alert.message, "an alert's message", forUser: true)
        }
        _ = error.reclassified(for: NoModuleCodes.self).description
    }
}

/// Stops the fuzzer when text Backstop wrote holds a character a server could act with: any C0
/// or C1 control, DEL, a line or paragraph separator, a bidirectional embedding, override or
/// isolate. Text for users may keep line feeds. Written out here rather than borrowed from
/// `UntrustedText`, so the oracle is independent of the code it checks.
private func requireSafe(_ text: String, _ what: String, forUser: Bool = false) {
    for scalar in text.unicodeScalars {
        if forUser && scalar == "\n" { continue }
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
            fatalError("\(what) holds U+\(String(scalar.value, radix: 16, uppercase: true)): \(text.debugDescription)")
        default: continue
        }
    }
}
