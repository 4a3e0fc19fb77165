import Backstop

#if Tracing
    import Tracing
#else
    #error("BackstopTracing needs Backstop's Tracing trait: .package(name: \"Backstop\", …, traits: [\"Tracing\"])")
#endif

extension RequestTracing {
    /// Spans from the tracer the app bootstrapped with `InstrumentationSystem.bootstrap`,
    /// read at each call; with none bootstrapped, calls are traced by nothing and pay nothing.
    public static var distributedTracing: RequestTracing {
        RequestTracing(DistributedCallTracer(tracer: nil))
    }

    /// Spans from `tracer`, whatever the app bootstrapped: for tests, or a client traced apart.
    public static func distributedTracing(_ tracer: any Tracer) -> RequestTracing {
        RequestTracing(DistributedCallTracer(tracer: tracer))
    }
}
