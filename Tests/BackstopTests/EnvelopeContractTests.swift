import Backstop
import Foundation
import Testing

@Suite("Envelope shapes A, B and C")
struct EnvelopeContractTests {
    @Test("success gives the payload", arguments: Shape.all)
    func success(shape: Shape) throws {
        let report = try unwrap(Product.self, shape.success(#"{"id":1,"name":"iPhone 17"}"#), with: shape.contract).get()
        #expect(report.value == Product(id: 1, name: "iPhone 17"))
        #expect(report.repairs.isEmpty)
    }

    @Test("failure gives the code and the message wherever it is", arguments: Shape.all)
    func failure(shape: Shape) {
        let error = unwrap(Product.self, shape.failure("11210005", "Wrong team code"), with: shape.contract).failure
        #expect(error == .server(.module(.wrongTeamCode, message: "Wrong team code")))
    }

    @Test("a code sent as a string works and is reported as a repair", arguments: Shape.all)
    func codeAsString(shape: Shape) throws {
        let log = RepairLog()
        let contract = shape.contract
        let codeName = contract.codePath?.members.last ?? ""
        let success = shape.success(#"{"id":1,"name":"x"}"#).replacingOccurrences(
            of: "\"\(codeName)\":200", with: "\"\(codeName)\":\"200\"")
        let report = try unwrap(Product.self, success, with: contract, decoder: ResilientJSONDecoder(reporter: log)).get()
        let expected = Repair(path: "$.\(codeName)", expected: "Int", found: .init(kind: .string, excerpt: #""200""#), action: .coerced)
        #expect(report.repairs == [expected])
        #expect(log.repairs == [expected])

        let failure = shape.failure(#""11001""#, "Token expired")
        #expect(unwrap(Product.self, failure, with: contract).failure == .server(.general(.tokenExpired, message: "Token expired")))
    }

    @Test("payload repairs have paths rooted at the body and reach the reporter", arguments: Shape.all)
    func payloadRepairs(shape: Shape) throws {
        let log = RepairLog()
        let body = shape.success(#"{"id":"7","name":"iPhone"}"#)
        let report = try unwrap(Product.self, body, with: shape.contract, decoder: ResilientJSONDecoder(reporter: log)).get()
        #expect(report.value == Product(id: 7, name: "iPhone"))
        #expect(report.repairs.map(\.path) == ["\(shape.payloadPath).id"])
        #expect(report.repairs.first?.action == .coerced)
        #expect(log.repairs == report.repairs)
    }

    @Test("on failure the payload path is not decoded", arguments: Shape.all)
    func failureSkipsPayload(shape: Shape) {
        let log = RepairLog()
        // A failure body that also carries a payload whose decoding would make a repair.
        let payload = #"{"id":"7","name":"a"}"#
        var body = shape.failure("11210006", "No such class")
        body = body.replacingOccurrences(of: #""result":null"#, with: #""result":{"data":\#(payload)}"#)
            .replacingOccurrences(of: #""data":null"#, with: #""data":\#(payload)"#)
            .replacingOccurrences(of: #""result":{"message""#, with: #""result":{"data":\#(payload),"message""#)
        #expect(body.contains(payload))
        let error = unwrap(Product.self, body, with: shape.contract, decoder: ResilientJSONDecoder(reporter: log)).failure
        #expect(error == .server(.module(.classNotFound, message: "No such class")))
        #expect(log.repairs.isEmpty)
    }

    @Test("success without data is fine for endpoints with no payload", arguments: Shape.all)
    func successWithoutData(shape: Shape) throws {
        #expect(try unwrap(NoPayload.self, shape.successWithoutData, with: shape.contract).get().value == NoPayload())
        #expect(try unwrap(Product?.self, shape.successWithoutData, with: shape.contract).get().value == nil)
        #expect(try unwrap(Product?.self, shape.success("null"), with: shape.contract).get().value == nil)
        // NoPayload ignores whatever is at the payload path.
        #expect(try unwrap(NoPayload.self, shape.success("[1,2]"), with: shape.contract).get().value == NoPayload())

        let failure = unwrap(Product.self, shape.successWithoutData, with: shape.contract).failure?.decodingFailure
        #expect(failure?.part == .payload)
        #expect(failure?.problem == .missing)
        #expect(failure?.path == shape.payloadPath)
    }

    @Test("204 No Content needs no body and no envelope", arguments: Shape.all + [nil])
    func noContent(shape: Shape?) throws {
        let contract = shape?.contract ?? .noEnvelope
        #expect(try unwrap(NoPayload.self, "", with: contract, status: .noContent).get().value == NoPayload())
        #expect(try unwrap(Product?.self, "", with: contract, status: .noContent).get().value == nil)
        let failure = unwrap(Product.self, "", with: contract, status: .noContent).failure?.decodingFailure
        #expect(failure?.part == .payload)
        #expect(failure?.problem == .missing)
    }

    @Test("an unacceptable status is an HTTP error that keeps the envelope's code and message", arguments: Shape.all)
    func httpErrorWithEnvelope(shape: Shape) {
        let body = shape.failure("11001", "Token expired")
        let headers: HTTPFields = [.retryAfter: "30"]
        let error = unwrap(Product.self, body, with: shape.contract, status: .unauthorized, headerFields: headers).failure
        #expect(
            error
                == .http(
                    HTTPFailure(
                        status: .unauthorized, headerFields: headers, body: Data(body.utf8),
                        code: 11001, message: "Token expired")))
        #expect(error?.role == .tokenExpired)
        #expect(error?.serverMessage == "Token expired")
    }

    @Test("an HTTP error whose body is not an envelope keeps the bytes")
    func httpErrorWithoutEnvelope() {
        let body = "<html><body>502 Bad Gateway</body></html>"
        let error = unwrap(Product.self, body, with: Shape.b.contract, status: .badGateway).failure
        #expect(error == .http(HTTPFailure(status: .badGateway, body: Data(body.utf8))))
        #expect(error?.role == nil)
    }

    @Test("accepted statuses are the contract's to choose")
    func acceptedStatuses() {
        var contract = Shape.b.contract
        contract.acceptedStatuses = 200..<500
        let body = Shape.b.failure("11210005", "Wrong team code")
        #expect(
            unwrap(Product.self, body, with: contract, status: .badRequest).failure
                == .server(.module(.wrongTeamCode, message: "Wrong team code")))
    }

    @Test("success can be a boolean flag; a false flag reads the code")
    func flag() throws {
        let contract = EnvelopeContract(code: "errorCode", message: ["errorMessage"], payload: "data", success: .flag("success"))
        #expect(try unwrap(Product.self, #"{"success":true,"data":{"id":1,"name":"a"}}"#, with: contract).get().value.id == 1)
        #expect(
            unwrap(Product.self, #"{"success":false,"errorCode":11002,"errorMessage":"Expired"}"#, with: contract).failure
                == .server(.general(.verifyCodeExpired, message: "Expired")))

        let log = RepairLog()
        let report = try unwrap(NoPayload.self, #"{"success":"true"}"#, with: contract, decoder: ResilientJSONDecoder(reporter: log)).get()
        #expect(
            report.repairs == [
                Repair(path: "$.success", expected: "Bool", found: .init(kind: .string, excerpt: #""true""#), action: .coerced)
            ])
        #expect(log.repairs == report.repairs)
        #expect(
            unwrap(NoPayload.self, #"{"success":0,"errorCode":"E_X"}"#, with: contract).failure
                == .server(.unknown("E_X", message: nil)))
    }

    @Test("without an envelope, the HTTP status alone decides")
    func httpStatusOnly() throws {
        let contract = EnvelopeContract.noEnvelope
        #expect(try unwrap([Product].self, #"[{"id":1,"name":"a"}]"#, with: contract).get().value.count == 1)
        #expect(try unwrap(NoPayload.self, "", with: contract).get().value == NoPayload())

        let detailed = EnvelopeContract(code: "error.code", message: ["error.message"], success: .httpStatus)
        let error = unwrap(Product.self, #"{"error":{"code":"E_STOCK","message":"Sold out"}}"#, with: detailed, status: .conflict).failure
        #expect(
            error
                == .http(
                    HTTPFailure(
                        status: .conflict, body: Data(#"{"error":{"code":"E_STOCK","message":"Sold out"}}"#.utf8),
                        code: "E_STOCK", message: "Sold out")))
    }

    @Test("a contract lists where it looks")
    func contractDescription() {
        #expect(
            Shape.c.contract.description
                == "code at $.statusCode, message at $.message or $.result.message, payload at $.result.data, success when code is 200")
        #expect(EnvelopeContract.noEnvelope.description == "payload at $, success when the HTTP status is in 200..<300")
    }

    @Test("trailing-comma repairs of the body are reported with the envelope's")
    func parsingRepairs() throws {
        let log = RepairLog()
        let report = try unwrap(
            Product.self, #"{"code":200,"data":{"id":1,"name":"a",},}"#, with: Shape.b.contract,
            decoder: ResilientJSONDecoder(reporter: log)
        ).get()
        #expect(report.repairs.count == 2)
        #expect(report.repairs.allSatisfy { $0.action == .ignoredTrailingComma })
        #expect(log.repairs == report.repairs)
    }

    @Test("unwrapping classifies with the error type the caller names", arguments: Shape.all)
    func throughUnwrap(shape: Shape) {
        #expect(
            unwrap(Product.self, shape.failure("10503", "Down"), with: shape.contract).failure
                == .server(.general(.maintenance, message: "Down")))
        #expect(
            unwrap(Product.self, shape.failure("11140003", "Checked in"), with: shape.contract).failure
                == .server(.unknown(11140003, message: "Checked in")))
        #expect(
            unwrap(Product.self, shape.failure(#""E_STOCK""#, "Sold out"), with: shape.contract).failure
                == .server(.unknown("E_STOCK", message: "Sold out")))

        let otherModule = Result { () throws(AppError<CheckInCode>) in
            try shape.contract.unwrap(
                Product.self, from: Data(shape.failure("11140003", "Checked in").utf8),
                response: HTTPResponse(status: .ok), throwing: AppError<CheckInCode>.self)
        }.failure
        #expect(otherModule == .server(.module(.alreadyCheckedIn, message: "Checked in")))
    }
}
