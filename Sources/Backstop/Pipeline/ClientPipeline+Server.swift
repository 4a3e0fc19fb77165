extension ClientPipeline {
    /// A pipeline for a server that calls other services, where a slow dependency meets bursts
    /// of many callers: the default pipeline, plus
    /// - a ``ConcurrencyLimit`` of `maximumConcurrentCalls` in flight and `maximumQueuedCalls`
    ///   waiting, so a burst never overruns the transport's connection pool;
    /// - a ``CircuitBreaker`` per host with .NET's standard thresholds (10% failures over at
    ///   least 100 attempts in 30 s, 5 s breaks), which a server's traffic reaches;
    /// - a 30 s ``timeout`` per call, retries included.
    ///
    /// Share the returned pipeline (its limit and breaker) between the clients that call the
    /// same services.
    ///
    /// - Parameters:
    ///   - maximumConcurrentCalls: The most calls in flight at once.
    ///   - maximumQueuedCalls: The most calls waiting for a turn.
    public static func server(maximumConcurrentCalls: Int = 64, maximumQueuedCalls: Int = 256) -> ClientPipeline {
        var pipeline = ClientPipeline()
        pipeline.concurrencyLimit = ConcurrencyLimit(
            maximumConcurrentCalls: maximumConcurrentCalls, maximumQueuedCalls: maximumQueuedCalls)
        pipeline.circuitBreaker = CircuitBreaker(
            failureRatio: 0.1, minimumThroughput: 100, samplingDuration: .seconds(30), breakDuration: .seconds(5))
        pipeline.timeout = .seconds(30)
        return pipeline
    }
}
