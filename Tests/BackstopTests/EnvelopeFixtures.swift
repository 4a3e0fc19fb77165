import Backstop
import Foundation
import Testing

/// One of the envelope shapes of seed 001, with bodies built around a payload.
struct Shape: Sendable, CustomTestStringConvertible {
    let name: String
    let contract: EnvelopeContract
    let payloadPath: String
    let success: @Sendable (_ payload: String) -> String
    let successWithoutData: String
    let failure: @Sendable (_ code: String, _ message: String) -> String

    var testDescription: String { name }

    static let a = Shape(
        name: "A",
        contract: EnvelopeContract(code: "statusCode", message: ["message"], payload: "result.data", success: .codes([200])),
        payloadPath: "$.result.data",
        success: { #"{"statusCode":200,"message":"success","result":{"data":\#($0)}}"# },
        successWithoutData: #"{"statusCode":200,"message":"success","result":{}}"#,
        failure: { #"{"statusCode":\#($0),"message":"\#($1)","result":null}"# })

    static let b = Shape(
        name: "B",
        contract: EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200])),
        payloadPath: "$.data",
        success: { #"{"code":200,"msg":"OK","data":\#($0)}"# },
        successWithoutData: #"{"code":200,"msg":"OK"}"#,
        failure: { #"{"code":\#($0),"msg":"\#($1)","data":null}"# })

    /// Like A on success; on failure the message moves into `result` and `data` is gone.
    static let c = Shape(
        name: "C",
        contract: EnvelopeContract(
            code: "statusCode", message: ["message", "result.message"],
            payload: "result.data", success: .codes([200])),
        payloadPath: "$.result.data",
        success: { #"{"statusCode":200,"result":{"data":\#($0)}}"# },
        successWithoutData: #"{"statusCode":200,"result":{}}"#,
        failure: { #"{"statusCode":\#($0),"result":{"message":"\#($1)"}}"# })

    static let all = [a, b, c]
}

/// Unwraps `body` as a study-group response, catching the typed error.
func unwrap<Payload: Decodable>(
    _ type: Payload.Type,
    _ body: String,
    with contract: some ResponseContract,
    status: HTTPResponse.Status = .ok,
    headerFields: HTTPFields = [:],
    decoder: ResilientJSONDecoder = ResilientJSONDecoder()
) -> Result<DecodingReport<Payload>, StudyGroupError> {
    Result { () throws(StudyGroupError) in
        try contract.unwrap(
            type, from: Data(body.utf8), response: HTTPResponse(status: status, headerFields: headerFields),
            decoder: decoder, throwing: StudyGroupError.self)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

extension APIError {
    var decodingFailure: DecodingFailure? {
        if case .decoding(let failure) = self { return failure }
        return nil
    }
}
