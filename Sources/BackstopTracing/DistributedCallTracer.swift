import Backstop

#if Tracing
    import Tracing
#else
    #error("BackstopTracing needs Backstop's Tracing trait: .package(name: \"Backstop\", …, traits: [\"Tracing\"])")
#endif

/// Traces calls with swift-distributed-tracing: one client span per call, current while it
/// runs, so spans made beneath it (the transport's, a refresh's) are its children.
struct DistributedCallTracer: CallTracer {
    /// `nil`: the tracer bootstrapped in `InstrumentationSystem`, read at each call.
    let tracer: (any Tracer)?

    var isTracing: Bool {
        if let tracer { return !(tracer is NoOpTracer) }
        // The instrument's own type first: finding a tracer among instruments costs more casts.
        return !(InstrumentationSystem.instrument is NoOpInstrument) && !(InstrumentationSystem.tracer is NoOpTracer)
    }

    func withCallSpan<Result>(_ call: () -> TracedCall, _ body: ((any CallSpan)?) async -> Result) async -> Result {
        let tracer = self.tracer ?? InstrumentationSystem.tracer
        if tracer is NoOpTracer { return await body(nil) }
        let call = call()
        return await tracer.withSpan(call.operationName, ofKind: .client) { span in
            span.updateAttributes { attributes in
                attributes["http.request.method"] = call.method.rawValue
                attributes["url.full"] = call.redactedURL
                if let address = call.serverAddress { attributes["server.address"] = address }
                if let port = call.serverPort { attributes["server.port"] = port }
            }
            return await body(DistributedCallSpan(span: span, tracer: tracer))
        }
    }
}
