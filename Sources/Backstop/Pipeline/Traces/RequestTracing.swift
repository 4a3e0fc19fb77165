/// The tracing stage of a ``ClientPipeline``: one span per call, named by its operation.
///
/// Made by the `BackstopTracing` product, which brings swift-distributed-tracing, so apps
/// that do not trace never build it:
///
/// ```swift
/// import BackstopTracing
///
/// var pipeline = ClientPipeline()
/// pipeline.tracing = .distributedTracing
/// ```
///
/// Each call gets a client span with OpenTelemetry's HTTP client attributes, an event per
/// attempt and per retry, its final status or `error.type`, and the trace context in its
/// request's headers; a token refresh gets a span of its own under the call that started it.
public struct RequestTracing: Sendable {
    /// Starts and ends the spans; implemented by `BackstopTracing`.
    package let tracer: any CallTracer

    /// Tracing by `tracer`.
    package init(_ tracer: any CallTracer) {
        self.tracer = tracer
    }
}
