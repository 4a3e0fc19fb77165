import Backstop
import Foundation

extension DocumentRehearsal {
    /// `operation`'s answer dirtied by `dirt` (clean when `dirt` is `nil`), run through
    /// ``OpenAPIContract`` as `PipelineMiddleware` runs a generated client's answer: by its
    /// operation ID, status and content type.
    package func rehearse(_ operation: DocumentOperation, _ dirt: DocumentDirt?) -> RehearsalOutcome {
        guard let answer = operation.answer, answer.isJSON else {
            return .undescribed("\(operation.title) answers no JSON")
        }
        var body = answer.body
        if let dirt {
            guard let dirty = dirtied(body, of: operation, status: answer.status, contentType: answer.contentType, by: dirt) else {
                return .notApplicable
            }
            body = dirty
        }
        do {
            let repaired = try contract.repair(
                body, operationID: operation.operationID, status: answer.status, contentType: answer.contentType)
            if let reason = repaired.undescribed { return .undescribed(reason) }
            return .survived(repairs: repaired.repairs)
        } catch {
            return .failed(error)
        }
    }
}
