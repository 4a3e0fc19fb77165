import HTTPTypes

/// How a call ended, as its entry point made it: what the caller gets, and what observation
/// (``CallRunner/observe(method:operationID:path:traced:_:)``) reports of it.
struct CallEnding<Output, Failure: Error, General: ServerCode, Module: ServerCode> {
    /// What the caller gets.
    var result: Result<Output, Failure>
    /// The call's failure as logs, metrics and the span report it, when it failed; a generated
    /// client's response with a status of 400 or more included, though its caller gets it.
    var failure: APIError<General, Module>?
    /// The request as the caller made it, before trace context and credential, for its path
    /// and secrets; `nil` when none could be made.
    var request: HTTPRequest?
    /// The final answer's status, when there was one.
    var status: HTTPResponse.Status?
    /// How many repairs decoding made.
    var repairs = 0
}
