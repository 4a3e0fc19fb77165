import BackstopJSON
import Foundation
import HTTPTypes

/// Reads the business code of an answer with a call's contract, once, for the stages that act
/// on its role (retrying `rateLimited`, refreshing on `tokenExpired`, publishing `maintenance`)
/// and for the decoding after them.
struct CodeReader: Sendable {
    let contract: any ResponseContract
    /// Parses without reporting repairs: they are reported once, when the payload is decoded.
    let decoder: ResilientJSONDecoder
    let role: @Sendable (RawServerCode) -> ServerCodeRole?

    init<General: ServerCode>(contract: any ResponseContract, generalCodes: General.Type, decoder: ResilientJSONDecoder) {
        self.contract = contract
        var quiet = decoder
        quiet.reporter = nil
        self.decoder = quiet
        role = { General($0)?.role }
    }

    /// `response` and its `body` as an ``Answer``: parsed, and the role of its general code.
    func answer(_ response: HTTPResponse, body: Data) -> Answer {
        var answer = Answer(response: response, body: body)
        guard !JSONScanner.isBlank(body), let json = try? ParsedJSON(body, decoder: decoder) else {
            return answer
        }
        answer.parsed = json
        let code: RawServerCode?
        if contract.acceptedStatuses.contains(answer.status.code) {
            if case .failure(let failure, _)? = try? contract.envelope(of: json, status: answer.status).outcome {
                code = failure
            } else {
                code = nil
            }
        } else {
            code = contract.errorDetails(in: json, status: answer.status).code
        }
        answer.role = code.flatMap(role)
        return answer
    }
}
