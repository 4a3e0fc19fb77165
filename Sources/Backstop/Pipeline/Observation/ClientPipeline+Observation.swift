import BackstopJSON
import HTTPTypes

extension ClientPipeline {
    /// Whether logging or metrics want to hear how calls end: describing an outcome costs
    /// more than a call that failed fast, so it is made only for someone.
    var observes: Bool { metrics != nil || logging?.isEnabled == true }

    /// Reports one call's outcome to logging and metrics; `request` is the call's request as
    /// made, before authentication, for the secrets it carries.
    func report(_ outcome: RequestOutcome, request: HTTPRequest?, record: CallRecord) {
        if let logging, logging.isEnabled {
            logging.log(outcome, secrets: secrets(of: request, record: record))
        }
        metrics?.record(outcome)
    }

    /// Hands one call's `repairs` to ``contractDrift`` under `operation`, with the call's secrets
    /// replaced in their samples, which outlive the call; both entry points record drift here.
    func recordDrift(_ repairs: [Repair], operation: String, request: HTTPRequest?, record: CallRecord) {
        guard let contractDrift, !repairs.isEmpty else { return }
        contractDrift.record(secrets(of: request, record: record).repairs(repairs), operation: operation)
    }
}
