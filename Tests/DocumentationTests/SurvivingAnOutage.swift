import Backstop

// The code of the DocC article "Surviving an Outage", as it is written there.

func makeAClientThatSurvivesAnOutage() -> APIClient<AppCode> {
    var pipeline = ClientPipeline()
    pipeline.circuitBreaker = CircuitBreaker()
    pipeline.concurrencyLimit = ConcurrencyLimit(maximumConcurrentCalls: 8)
    let client = APIClient<AppCode>(baseURL: baseURL, contract: backendB, pipeline: pipeline)
    return client
}
