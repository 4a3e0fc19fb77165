import HTTPTypes

/// How a call ended, as logging and metrics report it.
struct RequestOutcome: Sendable {
    var method: HTTPRequest.Method
    /// The path with its query; secrets are redacted by whoever reports it.
    var path: String
    var operationID: String
    var status: HTTPResponse.Status?
    var duration: Duration
    var attempts: Int
    var retries: [String]
    var repairs: Int
    /// The layer (`transport`, `http`, …), the grouping identifier and the one-line
    /// description of the error, when the call failed.
    var failure: (layer: String, identifier: String, description: String)?
    /// Set when a saved answer stood in for the call's failure.
    var savedAnswer: CallEnding.SavedAnswer?

    /// Records `error` as the call's failure.
    mutating func fail(with error: any ReportedFailure) {
        failure = (error.layerName, error.groupingIdentifier, error.description)
    }
}
