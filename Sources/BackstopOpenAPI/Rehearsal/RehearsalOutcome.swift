import Backstop
import BackstopJSON

/// What a generated client with `PipelineMiddleware` gets of one dirty answer, once
/// ``OpenAPIContract`` has repaired it: what `backstop rehearse` puts in each cell.
package enum RehearsalOutcome: Sendable {
    /// The dirt finds nothing to change in this answer (no enum, no list…).
    case notApplicable
    /// The answer is not JSON the document describes, so the contract hands it on as it is.
    case undescribed(String)
    /// The contract repaired it (or found nothing to repair); the generated client decodes it.
    case survived(repairs: [Repair])
    /// The call fails: the contract cannot repair it, where and why.
    case failed(DecodingFailure)

    /// Whether the call fails.
    package var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}
