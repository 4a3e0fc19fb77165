import Backstop
import BackstopTesting
import Foundation

/// The real client, with no envelope, on `transport`: the public `StubTransport`, so a stage's
/// rules are proven in memory on what an app's own tests use. Its base URL is no real host
/// unless given; `pipeline` is by default ``quietPipeline()``.
public func makeClient(
    _ transport: StubTransport,
    baseURL: URL = URL(string: "https://backstop.invalid")!,
    pipeline: ClientPipeline = quietPipeline()
) -> APIClient<GeneralCode> {
    APIClient<GeneralCode>(
        baseURL: baseURL, contract: EnvelopeContract.noEnvelope, decoder: ResilientJSONDecoder(), pipeline: pipeline,
        transport: transport)
}
