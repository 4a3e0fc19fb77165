import Backstop
import HTTPTypes

#if Tracing
    import Tracing
#else
    #error("BackstopTracing needs Backstop's Tracing trait: .package(name: \"Backstop\", …, traits: [\"Tracing\"])")
#endif

/// One call's span and the tracer that made it, which propagates its context.
struct DistributedCallSpan: CallSpan {
    let span: any Span
    let tracer: any Tracer

    func inject(into fields: inout HTTPFields) {
        tracer.inject(span.context, into: &fields, using: HTTPFieldsInjector())
    }

    func recordAttempt(_ number: Int) {
        // OpenTelemetry counts resends: the first attempt is 0, each retry or hedge one more.
        span.addEvent(SpanEvent(name: "attempt", attributes: ["http.request.resend_count": .int64(Int64(number - 1))]))
        span.attributes["http.request.resend_count"] = number - 1
    }

    func recordRetry(reason: String) {
        span.addEvent(SpanEvent(name: "retry", attributes: ["backstop.retry.reason": .string(reason)]))
    }

    func traceRefresh(_ body: @Sendable () async -> String) async {
        await tracer.withSpan("refresh credential", context: span.context, ofKind: .internal) { refresh in
            let outcome = await body()
            refresh.attributes["backstop.refresh.outcome"] = outcome
            if outcome != "succeeded" { refresh.setStatus(SpanStatus(code: .error, message: outcome)) }
        }
    }

    func recordEnd(status: HTTPResponse.Status?, errorType: String?) {
        if let status { span.attributes["http.response.status_code"] = status.code }
        if let errorType {
            span.attributes["error.type"] = errorType
            span.setStatus(SpanStatus(code: .error, message: errorType))
        }
    }

    func recordSavedAnswer(age: Duration, standsInFor: String?) {
        let (seconds, attoseconds) = age.components
        span.attributes["backstop.saved_answer.age_s"] = Double(seconds) + Double(attoseconds) / 1e18
        if let standsInFor { span.attributes["backstop.saved_answer.stands_in_for"] = standsInFor }
        span.addEvent(SpanEvent(name: "saved answer"))
    }
}
