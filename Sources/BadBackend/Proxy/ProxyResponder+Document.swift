import BackstopOpenAPI
import Foundation
import HTTPTypes

@available(macOS 14, iOS 17, tvOS 17, *)
extension ProxyResponder {
    /// The upstream's answer with `dirt` made where the document's schema for the request's
    /// operation says each value is, or `nil` when it finds nothing to change; and what the
    /// `Backstop-Scenario-Applied` header says of it.
    ///
    /// Byte dirt the schema cannot place (an operation the document does not have, an answer
    /// its schema does not describe) is made in the bytes, as without a document.
    static func dirtied(
        _ bytes: [UInt8], by dirt: DocumentDirt, in document: BadBackend.ServedDocument, method: String, path: String,
        status: HTTPResponse.Status, headers: HTTPFields
    ) -> (bytes: [UInt8]?, applied: String) {
        let byteDirt = ByteDirt(rawValue: dirt.rawValue)
        func bytesOnly(_ why: String) -> (bytes: [UInt8]?, applied: String) {
            guard let byteDirt, isJSON(headers) else { return (nil, "none: \(why)") }
            let dirty = byteDirt.applied(to: bytes)
            return dirty == bytes ? (nil, "none: \(why)") : (dirty, "\(dirt.rawValue) in the bytes: \(why)")
        }
        guard isJSON(headers) else { return (nil, "none: the answer is not uncompressed JSON") }
        guard case .operation(let operation, _) = document.rehearsal.match(method: method, path: path) else {
            return bytesOnly("the document has no operation \(method) \(path)")
        }
        guard
            let dirty = document.rehearsal.dirtied(
                Data(bytes), of: operation, status: status.code, contentType: headers[.contentType], by: dirt)
        else {
            return bytesOnly("\(dirt.rawValue) finds nothing to change in \(operation.title)'s \(status.code) answer")
        }
        return (Array(dirty), "\(dirt.rawValue) in \(operation.title)")
    }
}
