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

@available(macOS 14, iOS 17, tvOS 17, *)
extension ProxyResponder {
    /// The operation the request names in `document`, and the code scenario `name` is, when
    /// the scenario changes that operation's answers; else why not, as the
    /// `Backstop-Scenario-Applied` header says it.
    private static func coding(
        _ name: String, in document: BadBackend.ServedDocument, method: String, path: String
    ) -> Result<(code: DocumentCode, operation: DocumentOperation), NotApplied> {
        guard let code = Scenario(name: name).flatMap(DocumentCode.init) else {
            return .failure(NotApplied(description: "none: no code scenario is named \(name)"))
        }
        guard case .operation(let operation, _) = document.rehearsal.match(method: method, path: path) else {
            return .failure(NotApplied(description: "none: the document has no operation \(method) \(path)"))
        }
        guard code.applies(to: operation) else {
            return .failure(NotApplied(description: "none: \(name) finds nothing to change in \(operation.title)"))
        }
        return .success((code, operation))
    }

    /// What a code scenario answers without forwarding: HTTP 401 for an expired token where
    /// the operation's answer has no code field to carry it, as `serve --openapi` answers it,
    /// so the upstream never acts on a request whose answer the client is told it did not get.
    /// `nil`: forward the request.
    static func unauthorized(by name: String, in document: BadBackend.ServedDocument, method: String, path: String) -> Answer? {
        guard case .success(let (code, operation)) = coding(name, in: document, method: method, path: path),
            code.isUnauthorized(for: operation, expiredToken: .tokenExpiredCode)
        else { return nil }
        var answer = DocumentCode.unauthorized(operation)
        if let header = HTTPField.Name("Backstop-Scenario-Applied") { answer.headers[header] = "\(name) in \(operation.title)" }
        return answer
    }

    /// The upstream's answer with the code scenario `name`'s code and message in the code and
    /// message fields the document declares for the request's operation, or `nil` when it
    /// changes nothing; and what the `Backstop-Scenario-Applied` header says of it.
    ///
    /// Only a success that is uncompressed JSON carries the code: the document declares the
    /// code field of the operation's first success.
    static func coded(
        _ bytes: [UInt8], by name: String, in document: BadBackend.ServedDocument, method: String, path: String,
        status: HTTPResponse.Status, headers: HTTPFields
    ) -> (bytes: [UInt8]?, applied: String) {
        let code: DocumentCode
        let operation: DocumentOperation
        switch coding(name, in: document, method: method, path: path) {
        case .failure(let why): return (nil, why.description)
        case .success(let found): (code, operation) = found
        }
        guard status.kind == .successful else { return (nil, "none: the upstream answered \(status.code), not a success") }
        guard isJSON(headers), let coded = code.written(into: Data(bytes), of: operation, in: document.rehearsal) else {
            return (nil, "none: the upstream's answer is not an uncompressed JSON object to put the code in")
        }
        return (Array(coded), "\(name) in \(operation.title)")
    }

    /// Why a scenario changed nothing: the `Backstop-Scenario-Applied` header's text.
    private struct NotApplied: Error {
        let description: String
    }
}
