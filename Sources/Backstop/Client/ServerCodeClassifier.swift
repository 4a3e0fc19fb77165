import BackstopJSON
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Reads the role of the business code in a response, for middlewares that act on it
/// (retrying a `rateLimited` code, refreshing on `tokenExpired`) before the body is decoded.
///
/// ``APIClient`` hands its own to its middlewares; an OpenAPI-generated client passes one
/// to the middlewares that need it:
///
/// ```swift
/// let classifier = ServerCodeClassifier(contract: backendB, generalCodes: AppCode.self)
/// let retry = RetryMiddleware(classifier: classifier)
/// ```
public struct ServerCodeClassifier: Sendable {
    private let classify: @Sendable (HTTPResponse, Data, RequestContext?) -> ServerCodeRole?

    /// Reads envelopes with `contract` and classifies their codes as `General` codes.
    public init<General: ServerCode>(
        contract: any ResponseContract, generalCodes: General.Type, decoder: ResilientJSONDecoder = ResilientJSONDecoder()
    ) {
        // Repairs are reported once, when the client decodes the body.
        let quiet = { var quiet = decoder; quiet.reporter = nil; return quiet }()
        classify = { response, body, context in
            guard !body.isEmpty else { return nil }
            let json: ParsedJSON
            if let parsed = context?.parsedBody(body, decoder: quiet) {
                json = parsed
            } else {
                guard let parsed = try? ParsedJSON(body, decoder: quiet) else { return nil }
                // Later middlewares and the client's decode read it from here instead of parsing again.
                context?.keepParsedBody(body, parsed)
                json = parsed
            }
            let code: RawServerCode?
            if contract.acceptedStatuses.contains(response.status.code) {
                guard case .failure(let failure, _)? = try? contract.envelope(of: json, status: response.status).outcome
                else { return nil }
                code = failure
            } else {
                code = contract.errorDetails(in: json, status: response.status).code
            }
            return code.flatMap { General($0)?.role }
        }
    }

    /// The role of the business code in `body`, or `nil` when it has none or no code.
    public func role(of response: HTTPResponse, body: Data) -> ServerCodeRole? {
        classify(response, body, nil)
    }

    /// The role of the code in a body that may be readable only once, and a body that
    /// replays the same bytes for whoever reads the response next.
    func role(of response: HTTPResponse, body: HTTPBody?, upTo limit: Int) async throws -> (ServerCodeRole?, HTTPBody?) {
        guard let body else { return (nil, nil) }
        let data = try await BodyCollection.collect(body, upTo: limit)
        return (classify(response, data, RequestContext.current), HTTPBody(data))
    }
}
