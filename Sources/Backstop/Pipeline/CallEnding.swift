import HTTPTypes

/// How a call ended, as observation (``CallRunner/observe(method:operationID:path:traced:_:)``)
/// reports it; what the caller gets stays with the entry point.
///
/// Not generic over the payload or the codes: an entry point is generic over both, and every
/// generic value passed between its functions looks up its type's metadata at run time, on
/// every call.
struct CallEnding {
    /// The call's failure as logs, metrics and the span report it, when it failed; a generated
    /// client's response with a status of 400 or more included, though its caller gets it.
    var failure: (any ReportedFailure)?
    /// The request as the caller made it, before trace context and credential, for its path
    /// and secrets; `nil` when none could be made.
    var request: HTTPRequest?
    /// The final answer's status, when there was one.
    var status: HTTPResponse.Status?
    /// How many repairs decoding made.
    var repairs = 0
    /// Set when a saved answer stood in for the call's failure.
    var savedAnswer: SavedAnswer?

    /// A saved answer that stood in for a failure, as observation reports it.
    struct SavedAnswer {
        /// How old it was.
        var age: Duration
        /// The grouping identifier of the failure it stood in for (`transport.timedOut`).
        var standsInFor: String?
    }
}

/// What observation reads of a call's failure: an ``APIError`` of any codes, described only
/// when someone reports it.
protocol ReportedFailure {
    /// The layer's name: `transport`, `http`, `server`, `decoding` or `client`.
    var layerName: String { get }
    /// ``APIError/groupingIdentifier``.
    var groupingIdentifier: String { get }
    /// The one-line description.
    var description: String { get }
}

extension APIError: ReportedFailure {
    var layerName: String { layer.rawValue }
}
