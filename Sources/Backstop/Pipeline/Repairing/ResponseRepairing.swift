import BackstopJSON
import Foundation

/// Repairs a generated client's response bodies before its generated code decodes them.
///
/// ``PipelineMiddleware`` calls it once per call, on the final answer's body, and reports
/// the repairs it made as ``APIClient`` reports a decode's: their count in the call's log
/// line and `backstop_repairs_total`, and each in ``ClientPipeline/contractDrift``, its
/// excerpt redacted. `BackstopOpenAPI`'s `OpenAPIContract` conforms, with the app's OpenAPI
/// document as the contract; Backstop itself knows nothing of OpenAPI documents.
public protocol ResponseRepairing: Sendable {
    /// `body` as the generated code should read it, and the repairs that made it so.
    ///
    /// - Parameters:
    ///   - body: The response body as received.
    ///   - operationID: The generated operation's ID.
    ///   - status: The response's HTTP status code.
    ///   - contentType: The response's `Content-Type`, parameters included, if it had one.
    /// - Returns: The same bytes when nothing needed repairing or the response is not one the
    ///   repairer describes (``RepairedBody/undescribed`` then says why), else the repaired bytes.
    /// - Throws: A ``DecodingFailure`` naming the JSON path when the body cannot be repaired
    ///   into what the generated code reads.
    func repair(_ body: Data, operationID: String, status: Int, contentType: String?) throws(DecodingFailure) -> RepairedBody
}
