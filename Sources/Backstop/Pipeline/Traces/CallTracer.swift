import HTTPTypes

/// What the pipeline asks of a tracer, so that `Backstop` itself needs no tracing package.
package protocol CallTracer: Sendable {
    /// Whether a call made now would be traced: asked first, so a call nobody traces goes
    /// the untraced way, without the generic span machinery.
    var isTracing: Bool { get }

    /// Runs `body` inside a span for `call`, made current for the tasks it starts, and ends
    /// the span when `body` returns; `body` gets `nil` when nothing is traced, so a tracer
    /// that records nothing costs nothing more: `call` is made only for a span.
    func withCallSpan<Result>(
        _ call: () -> TracedCall, _ body: ((any CallSpan)?) async -> Result
    ) async -> Result
}

/// The span of one call: what the stages tell it as the call goes on.
package protocol CallSpan: Sendable {
    /// Writes the span's context into `fields`, as the installed instrument propagates it
    /// (`traceparent` for W3C trace context).
    func inject(into fields: inout HTTPFields)
    /// Attempt `number` (1 for the first) is about to reach the transport.
    func recordAttempt(_ number: Int)
    /// A retry is to be made, for `reason` (`status.503`, `transport.timedOut`, `hedge`).
    func recordRetry(reason: String)
    /// Runs a token refresh inside a span of its own under this one; `body` answers how it
    /// ended (`succeeded`, `failed`, `interrupted`).
    func traceRefresh(_ body: @Sendable () async -> String) async
    /// How the call ended: the final status, if an answer came, and the error's grouping
    /// identifier when it failed (never its description, which may carry what the user sent).
    func recordEnd(status: HTTPResponse.Status?, errorType: String?)
    /// A saved answer `age` old stood in for the call's failure, whose grouping identifier is
    /// `standsInFor` (``SavedAnswers``).
    func recordSavedAnswer(age: Duration, standsInFor: String?)
}

/// What a span is named and tagged with before the call starts.
package struct TracedCall: Sendable {
    /// The bounded operation name, such as `GET groups/{id}`, the span's name.
    package var operationName: String
    package var method: HTTPRequest.Method
    /// The URL without its query's values or any user information.
    package var redactedURL: String
    package var serverAddress: String?
    package var serverPort: Int?
}
