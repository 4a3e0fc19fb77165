import Backstop
import BackstopJSON
import BackstopOpenAPI
import Foundation

/// What a generated client would get of one response once BackstopOpenAPI repairs it against
/// its operation's schema, as `backstop check --openapi … --operation …` prints it.
struct OpenAPICheck {
    /// The body as the generated code would decode it: repaired, or as received.
    let body: Data
    /// The repairs the schema called for.
    let repairs: [Repair]
    /// The report's lines about the schema, one fact a line.
    let lines: [String]
    /// 0 when the body fits the schema (after repairs), 1 when the call would fail.
    let exitCode: Int32

    init(body: Data, response: HTTPResponse, contract: OpenAPIContract, operation: String) {
        // The operation ID is the user's text: escaped like a server's.
        let shown = UntrustedText.escaped(operation)
        guard contract.describes(operationID: operation) else {
            self.body = body
            repairs = []
            lines = ["operation: \(shown) is not in the document; its body would be handed on unrepaired"]
            exitCode = 1
            return
        }
        let contentType = response.headerFields[.contentType]
        var lines = ["operation: \(shown), status \(response.status.code), \(UntrustedText.escaped(contentType ?? "application/json"))"]
        do {
            let repaired = try contract.repair(body, operationID: operation, status: response.status.code, contentType: contentType)
            self.body = repaired.body
            repairs = repaired.repairs
            if let reason = repaired.undescribed {
                lines.append("schema: none for this response (\(UntrustedText.escaped(reason))); handed on unrepaired")
            } else {
                lines.append(repaired.repairs.isEmpty ? "schema: fits" : "schema: fits after \(Self.count(repaired.repairs.count))")
                lines += repaired.repairs.isEmpty ? ["schema repairs: none"] : ["schema repairs:"] + repaired.repairs.map { "  \($0)" }
            }
            exitCode = 0
        } catch {
            self.body = body
            repairs = []
            lines.append("schema broken: \(error)")
            exitCode = 1
        }
        self.lines = lines
    }

    private static func count(_ repairs: Int) -> String {
        repairs == 1 ? "1 repair" : "\(repairs) repairs"
    }
}
