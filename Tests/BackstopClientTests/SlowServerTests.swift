import Backstop
import BackstopTestSupport
import Clocks
import Foundation
import Testing

extension BackstopClient {
    /// A server that trickles its headers or its body cannot keep a call open past the pipeline's
    /// total deadline, on either transport. The deadline runs on a test clock, moved once the
    /// request has arrived; the server then holds the connection until the client hangs up.
    @Suite("Slow servers end by the deadline")
    struct SlowServerTests {
        @Test func aPipelineEndsEachCallWithinADefaultTimeout() {
            #expect(ClientPipeline().timeout == .seconds(30))
            #expect(ClientPipeline.defaultTimeout == .seconds(30))
            #expect(ClientPipeline(timeout: nil).timeout == nil)
        }

        /// What the server sends before it stops sending (without closing).
        enum Trickle: String, CaseIterable, Sendable {
            case partOfTheHeaders
            case theHeadersAndPartOfTheBody

            var bytes: String {
                switch self {
                case .partOfTheHeaders: "HTTP/1.1 200 OK\r\nContent-Ty"
                case .theHeadersAndPartOfTheBody: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n\"x"
                }
            }

            /// The rest of a complete answer.
            var rest: String {
                switch self {
                case .partOfTheHeaders: "pe: application/json\r\nContent-Length: 4\r\n\r\n\"ok\""
                case .theHeadersAndPartOfTheBody: "\"" + String(repeating: " ", count: 998)
                }
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(1)), arguments: TransportKind.allCases, Trickle.allCases)
        func aTricklingServerEndsByTheDefaultDeadline(transport: TransportKind, trickle: Trickle) async throws {
            // Released once the call has ended: the server then finishes its answer, since
            // corelibs-foundation 6.3 stops the process when a connection it still reads closes
            // mid-headers (see CorelibsFoundationTests), and on Linux a request whose head is on
            // its way is cancelled only once the head arrives (`DataTaskLifecycle`). So the
            // server is stopped only once it has sent the rest.
            let release = DispatchSemaphore(value: 0)
            let (sentTheRest, sendingTheRest) = AsyncStream<Void>.makeStream()
            let server = try HostileServer { connection in
                try connection.readRequest()
                try connection.write(trickle.bytes)
                release.wait()
                // Sent, or refused by a client that hung up.
                let sent = Result { try connection.write(trickle.rest) }
                sendingTheRest.finish()
                try sent.get()
                connection.waitForClose()
            }
            defer {
                release.signal()
                server.stop()
            }
            let clock = TestClock()
            // The pipeline's default timeout, on a clock the test moves.
            let client = makeClient(
                server.url, transport, contract: .noEnvelope,
                pipeline: quietPipeline {
                    $0.timeout = ClientPipeline.defaultTimeout
                    $0.timeoutClock = clock
                })
            let call = Task { await failure(of: client, Endpoint<String, NoModuleCodes>(.get, "slow")) }
            _ = await server.request(0)
            await clock.advance(by: ClientPipeline.defaultTimeout)
            let error = await call.value
            release.signal()
            for await _ in sentTheRest {}
            #expect(transportReason(of: error) == .timedOut, "\(String(describing: error))")
        }
    }
}
