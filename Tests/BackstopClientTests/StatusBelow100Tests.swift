import Backstop
import BackstopTestSupport
import Foundation
import Testing

extension BackstopClient {
    /// A status line below 100 (`HTTP/1.1 099 X`, `000`) with a body: AsyncHTTPClient 1.37.0 stops
    /// the process on a `preconditionFailure` (see Upstream/async-http-client-status-below-100.md),
    /// shown here in a child process so that the suite survives; URLSession ends the call.
    @Suite("Status below 100")
    struct StatusBelow100Tests {
        static func server(status: String) throws -> HostileServer {
            try HostileServer { connection in
                while true {
                    let request = try connection.readRequest()
                    if request.target == "/probe" {
                        try connection.write("HTTP/1.1 \(status) X\r\nContent-Length: 5\r\n\r\nhello")
                    } else {
                        try connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\n\r\n\"ok\"")
                    }
                }
            }
        }

        /// Upstream's bug, until it is fixed: when this fails, AsyncHTTPClient no longer traps,
        /// and the Production article's warning can go.
        @Test(.timeLimit(.minutes(1)), arguments: ["099", "000"])
        func asyncHTTPClientStopsTheProcess(status: String) async throws {
            let server = try Self.server(status: status)
            defer { server.stop() }
            let ended = try await HostileProbe.run("asyncHTTPClient", server.url)
            #expect(ended.reason == .uncaughtSignal, "the probe ended with \(ended.status): \(ended.output)")
        }

        @Test(arguments: ["099", "000"])
        func urlSessionEndsTheCallAsATransportFailure(status: String) async throws {
            let server = try Self.server(status: status)
            defer { server.stop() }
            let client = makeClient(server.url, .urlSession, contract: .noEnvelope)
            let error = await failure(of: client, Endpoint<String, NoModuleCodes>(.get, "probe"))
            #expect(transportReason(of: error) != nil, "\(String(describing: error))")
        }
    }
}
