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
}
