import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import HTTPTypes
import InMemoryLogging
import Logging
import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// Durations Backstop writes for engineers are rounded: a circuit open for `13 s`, never
    /// `12.997206732999999 seconds`. In memory, on a transport that answers 503 and a test clock.
    @Suite("Durations in engineers' text")
    struct DurationTextTests {
        /// Answers every request with HTTP 503 and no body.
        struct Unavailable: ClientTransport {
            func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?)
            {
                (HTTPResponse(status: .serviceUnavailable), nil)
            }
        }

        @Test("an open circuit's failure and its log line round what is left and the break")
        func anOpenCircuitRoundsItsDurations() async throws {
            let clock = TestClock()
            let logs = InMemoryLogHandler.keepingDebug()
            let breaker = CircuitBreaker(
                failureRatio: 0.5, minimumThroughput: 2, breakDuration: .seconds(15), clock: clock,
                logger: Logger(label: "circuit") { _ in logs })
            let client = APIClient<GeneralCode>(
                baseURL: try #require(URL(string: "http://backend.test")),
                pipeline: ClientPipeline(logging: nil, metrics: nil, retry: .never, circuitBreaker: breaker),
                transport: Unavailable())
            let endpoint = Endpoint<Item, StudyGroupCode>(.get, "b/products/1")
            for _ in 0..<2 { _ = await failure(of: client, endpoint) }
            await clock.advance(by: .milliseconds(2_003))
            guard case .client(let open)? = await failure(of: client, endpoint) else {
                Issue.record("expected the open circuit's failure")
                return
            }
            #expect(open.reason == .circuitOpen)
            #expect(open.detail == "the circuit of backend.test is open for 13 s more")
            #expect(logs.entries.map { "\($0.message)" } == ["circuit backend.test: closed → open for 15 s"])
        }
    }
}
