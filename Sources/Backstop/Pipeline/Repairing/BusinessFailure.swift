import BackstopJSON
import Foundation
import HTTPTypes

/// A business failure inside a 2xx envelope, as ``PipelineMiddleware`` throws it to a generated
/// client's caller and as it logs it.
struct BusinessFailure: Sendable {
    /// What the caller gets: an `APIError<General, NoModuleCodes>.server`.
    var thrown: any Error
    /// What the log line, metrics and span report.
    var logged: APIError<NoModuleCodes, NoModuleCodes>

    /// The business failure `body`'s envelope reads by `contract`, when the status is one it
    /// accepts and the envelope reads a failure: the code classified as ``APIClient`` classifies
    /// it (general, else unknown), so the caller switches on the same `APIError` cases.
    static func read<General: ServerCode>(
        _ body: Data, parsed: ParsedJSON?, response: HTTPResponse, contract: any ResponseContract, decoder: ResilientJSONDecoder,
        _ general: General.Type
    ) -> BusinessFailure? {
        guard contract.acceptedStatuses.contains(response.status.code) else { return nil }
        var quiet = decoder
        quiet.reporter = nil
        guard let json = parsed ?? (try? ParsedJSON(body, decoder: quiet)),
            case .failure(let code, let message)? = try? contract.envelope(of: json, status: response.status).outcome
        else { return nil }
        return BusinessFailure(
            thrown: APIError<General, NoModuleCodes>.server(ServerError(code: code, message: message)),
            logged: .server(ServerError(code: code, message: message)))
    }
}
