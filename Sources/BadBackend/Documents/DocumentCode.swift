import Foundation
import HTTPTypes

#if BadBackend && OpenAPI
    import BackstopOpenAPI
    import Hummingbird
#else
    #error(
        "BadBackend needs Backstop's BadBackend and OpenAPI traits: .package(name: \"Backstop\", …, traits: [\"BadBackend\", \"OpenAPI\"])")
#endif

/// A scenario that carries a business code (an app-wide code, an unknown one, an expired
/// token), made in an answer of a document's operation: `serve --openapi` makes it in the
/// document's answer and ``BackstopProxy`` with a document in the upstream's, both here.
struct DocumentCode {
    /// The scenario, one whose ``Scenario/businessCode`` is not `nil`.
    let scenario: Scenario
    let code: Int

    /// The code scenario `scenario` is; `nil` for one without a business code.
    init?(_ scenario: Scenario) {
        guard let code = scenario.businessCode else { return nil }
        self.scenario = scenario
        self.code = code
    }

    /// The names of the code scenarios a served document has, in the order `GET /scenarios` lists them.
    static let names: [String] = DocumentScenario.all.compactMap { scenario in
        guard case .scenario(let scenario) = scenario, scenario.businessCode != nil else { return nil }
        return scenario.name
    }

    var isTokenExpired: Bool { scenario == .general(.tokenExpired) }

    /// Whether it changes `operation`'s answers: an expired token where the operation declares
    /// security, any other code where its answer is JSON with a code field.
    func applies(to operation: DocumentOperation) -> Bool {
        guard let answer = operation.answer else { return false }
        return isTokenExpired ? operation.secured : operation.envelopeCode != nil && answer.isJSON
    }

    /// Whether an expired token is a 401, without the operation's answer: when the answer has
    /// no code field to carry it, or the server answers expired tokens so.
    func isUnauthorized(for operation: DocumentOperation, expiredToken: ExpiredTokenAnswer) -> Bool {
        isTokenExpired && (expiredToken == .unauthorized || operation.envelopeCode == nil)
    }

    /// `body`, an answer of `operation`, with the code and its message in the answer's own code
    /// and message fields; `nil` when the body is not a JSON object or the answer has no code field.
    func written(into body: Data, of operation: DocumentOperation, in rehearsal: DocumentRehearsal) -> Data? {
        rehearsal.withCode(code, message: scenario.message, in: body, of: operation)
    }

    /// HTTP 401 for an expired token: the document's answer for 401 when it gives one, with
    /// `WWW-Authenticate` saying why.
    static func unauthorized(_ operation: DocumentOperation) -> Answer {
        var answer = DocumentAnswering.documented(401, reason: "The access token expired", of: operation)
        if let field = HTTPField.Name("WWW-Authenticate") {
            answer.headers[field] = #"Bearer error="invalid_token", error_description="The access token expired""#
        }
        return answer
    }
}
