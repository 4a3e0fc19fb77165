import Backstop
import Foundation
import Testing

/// A backend whose shape paths cannot express: the outcome is the sign of `errno`, and the
/// payload's location depends on a `kind` field.
struct LegacyContract: ResponseContract {
    var description: String { "errno at $.errno (0 or more is success), payload at $.<kind>" }

    func envelope(of body: ParsedJSON?, status: HTTPResponse.Status) throws(DecodingFailure) -> Envelope {
        guard let body, case .integer(let errno)? = body.value(at: ["errno"]) else {
            throw DecodingFailure(.code, at: "errno", .missing, in: body)
        }
        guard errno >= 0 else {
            var message: String?
            if case .string(let text)? = body.value(at: ["errstr"]) { message = text }
            return Envelope(.failure(code: RawServerCode(Int(errno)), message: message))
        }
        guard case .string(let kind)? = body.value(at: ["kind"]) else {
            throw DecodingFailure(.payload, at: "kind", .missing, detail: "no kind, so no payload", in: body)
        }
        return Envelope(.success(payloadAt: EnvelopePath([kind])))
    }
}

enum LegacyCode: Int, ServerCode {
    case noSuchProduct = -404
}

@Suite("Contracts written as code")
struct CustomContractTests {
    let contract = LegacyContract()

    @Test("used exactly like an EnvelopeContract")
    func success() throws {
        let log = RepairLog()
        let body = #"{"errno":0,"kind":"product","product":{"id":"3","name":"Pen"}}"#
        let report = try unwrap(Product.self, body, with: contract, decoder: ResilientJSONDecoder(reporter: log)).get()
        #expect(report.value == Product(id: 3, name: "Pen"))
        #expect(report.repairs.map(\.path) == ["$.product.id"])
        #expect(log.repairs == report.repairs)
    }

    @Test("failures are classified the same way")
    func failure() {
        let error = Result { () throws(AppError<LegacyCode>) in
            try contract.unwrap(
                Product.self, from: Data(#"{"errno":-404,"errstr":"No such product"}"#.utf8),
                response: HTTPResponse(status: .ok), throwing: AppError<LegacyCode>.self)
        }.failure
        #expect(error == .server(.module(.noSuchProduct, message: "No such product")))
    }

    @Test("broken bodies are decoding errors with the contract's words")
    func broken() {
        let missing = unwrap(Product.self, #"{"kind":"product"}"#, with: contract).failure?.decodingFailure
        #expect(missing?.part == .code)
        #expect(missing?.path == "$.errno")
        #expect(missing?.excerpt == #"{"kind":"product"}"#)

        let html = unwrap(Product.self, "<html></html>", with: contract).failure
        #expect(html?.decodingFailure?.problem == .notJSON)
        #expect(html?.description.contains("errno at $.errno") == true)
    }

    @Test("HTTP errors read the envelope through the default errorDetails")
    func httpError() {
        let body = #"{"errno":-404,"errstr":"No such product"}"#
        let error = unwrap(Product.self, body, with: contract, status: .notFound).failure
        #expect(error == .http(HTTPFailure(status: .notFound, body: Data(body.utf8), code: -404, message: "No such product")))
    }
}
