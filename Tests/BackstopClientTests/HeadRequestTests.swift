import Backstop
import BackstopTestSupport
import Foundation
import Testing

extension BackstopClient {
    /// A `HEAD` response declares the length of a body it never sends: the limit on bodies does
    /// not apply to it, whether the transport reads bodies as they stream or whole before it
    /// returns (AsyncHTTPClient's, with the call's deadline to keep).
    @Suite("HEAD requests", .timeLimit(.minutes(1)))
    struct HeadRequestTests {
        @Test(arguments: TransportKind.allCases, [false, true])
        func aDeclaredLengthOverTheLimitIsNoBodyToRefuse(transport: TransportKind, timed: Bool) async throws {
            let server = try HostileServer.answering { _ in
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(1 << 30)\r\n\r\n"
            }
            defer { server.stop() }
            let client = APIClient<GeneralCode>(
                baseURL: server.url, contract: EnvelopeContract.noEnvelope,
                pipeline: quietPipeline {
                    $0.clock = ContinuousClock()
                    $0.timeout = timed ? .seconds(30) : nil
                },
                transport: transport.make())
            let response = try await client.response(for: Endpoint<NoPayload, NoModuleCodes>(.head, "large"))
            #expect(response.status == .ok)
            #expect(response.headerFields[.contentLength] == "\(1 << 30)")
        }
    }
}
