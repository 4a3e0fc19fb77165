import Backstop
import BackstopAsyncHTTPClient
import BackstopTestSupport
import Clocks
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// The timeouts on the system's clocks, as apps run them: their deadlines share one Dispatch
    /// timer instead of a sleeping task per call. The server's slow answers wait on a test clock
    /// nobody advances, so a call ends only by its deadline; each test waits for that end, and
    /// no test asserts how long it took.
    @Suite("Timeouts on the system clock")
    struct SystemClockTimeoutTests {
        /// A client on the system's continuous clock, hedged when asked (a hedged call keeps its
        /// deadline in its race, not in a task of its own), configured further by `configure`.
        static func client(
            _ url: URL, _ transport: TransportKind, hedged: Bool = false, hedgeDelay: Duration = .seconds(20),
            _ configure: (inout ClientPipeline) -> Void
        ) -> APIClient<GeneralCode> {
            makeClient(
                url, transport,
                pipeline: quietPipeline {
                    $0.clock = ContinuousClock()
                    if hedged { $0.hedging = Hedging(delay: hedgeDelay) }
                    configure(&$0)
                })
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(1)), arguments: TransportKind.allCases, [false, true])
        func aCallThatOutlivesItsTimeoutTimesOut(transport: TransportKind, hedged: Bool) async throws {
            try await withBackend { _, url in
                let client = Self.client(url, transport, hedged: hedged, hedgeDelay: .milliseconds(20)) {
                    $0.timeout = .milliseconds(200)
                }
                let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1"))
                #expect(transportReason(of: error) == .timedOut)
                #expect(error?.description.contains("no response within 200 ms") == true, "\(String(describing: error))")
                // Only the call's own work was cancelled, never the caller's task.
                #expect(!Task.isCancelled)
                // The client goes on: a quick answer within the same timeout.
                let item = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                #expect(item == .one)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(1)), arguments: TransportKind.allCases)
        func anAttemptThatOutlivesItsTimeoutIsRetried(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let client = Self.client(url, transport) {
                    $0.attemptTimeout = .milliseconds(100)
                    $0.retry = RetryPolicy(retryLimit: 1, exponentialBackoffScale: .zero)
                }
                let response = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1"))
                #expect(transportReason(of: response) == .timedOut)
                #expect(await backend.hits("/scenarios/slow/b/products/1") == 2)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(1)), arguments: TransportKind.allCases, [false, true])
        func aRetryWaitLongerThanTheTimeoutEndsTheCallAtItsDeadline(transport: TransportKind, hedged: Bool) async throws {
            try await withBackend { backend, url in
                let client = Self.client(url, transport, hedged: hedged, hedgeDelay: .milliseconds(20)) {
                    $0.timeout = .milliseconds(400)
                    $0.attemptTimeout = .milliseconds(100)
                    $0.retry = RetryPolicy(retryLimit: 1, exponentialBackoffScale: .seconds(60))
                }
                let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1"))
                #expect(transportReason(of: error) == .timedOut)
                #expect(error?.description.contains("no response within 400 ms") == true, "\(String(describing: error))")
                // The retry was never sent: the call ended at its deadline, not a minute later.
                #expect(await backend.hits("/scenarios/slow/b/products/1") <= (hedged ? 2 : 1))
                #expect(!Task.isCancelled)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(1)), arguments: TransportKind.allCases, [false, true])
        func cancellingTheCallerEndsATimedCallAsCancelled(transport: TransportKind, hedged: Bool) async throws {
            try await withBackend { backend, url in
                let client = Self.client(url, transport, hedged: hedged) {
                    $0.timeout = .seconds(30)
                }
                let call = Task { await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1")) }
                _ = try await backend.requestLog.arrival()
                call.cancel()
                #expect(transportReason(of: await call.value) == .cancelled)
            }
        }

        /// A server that sends the head and the first byte of a 1,000-byte body, then nothing
        /// until the test ends: AsyncHTTPClient lets go of its deadline once the head is in, so
        /// the body is read in a task the call's deadline cancels; URLSession's transport ends
        /// the whole exchange at the deadline.
        /// A server that sends a head and the first byte of the body, tells `headSent`, and sends
        /// the rest once released.
        private static func stallingBody(
            headSent: AsyncStream<Void>.Continuation? = nil
        ) throws -> (HostileServer, DispatchSemaphore) {
            let release = DispatchSemaphore(value: 0)
            let server = try HostileServer { connection in
                try connection.readRequest()
                try connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n\"x")
                headSent?.yield()
                release.wait()
                try connection.write("\"" + String(repeating: " ", count: 998))
                connection.waitForClose()
            }
            return (server, release)
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(1)), arguments: TransportKind.allCases, [false, true])
        func aBodyThatStallsPastTheDeadlineTimesOut(transport: TransportKind, hedged: Bool) async throws {
            let (server, release) = try Self.stallingBody()
            defer {
                release.signal()
                server.stop()
            }
            let client = Self.client(server.url, transport, hedged: hedged) { $0.timeout = .milliseconds(300) }
            let error = await failure(of: client, Endpoint<String, NoModuleCodes>(.get, "slow", contract: EnvelopeContract.noEnvelope))
            release.signal()
            #expect(transportReason(of: error) == .timedOut, "\(String(describing: error))")
            #expect(error?.description.contains("no response within 300 ms") == true, "\(String(describing: error))")
            #expect(!Task.isCancelled)
        }

        @Test(.timeLimit(.minutes(1)), arguments: TransportKind.allCases)
        func cancellingTheCallerWhileTheBodyStallsEndsTheCallAsCancelled(transport: TransportKind) async throws {
            let (heads, head) = AsyncStream.makeStream(of: Void.self)
            let (server, release) = try Self.stallingBody(headSent: head)
            defer {
                release.signal()
                server.stop()
            }
            let client = APIClient<GeneralCode>(
                baseURL: server.url, contract: EnvelopeContract.noEnvelope,
                pipeline: quietPipeline {
                    $0.clock = ContinuousClock()
                    $0.timeout = .seconds(30)
                },
                transport: transport.make())
            let call = Task { await failure(of: client, Endpoint<String, NoModuleCodes>(.get, "slow")) }
            // The head is out: the call now waits for the rest of the body.
            var arrivals = heads.makeAsyncIterator()
            _ = await arrivals.next()
            call.cancel()
            let error = await call.value
            release.signal()
            #expect(transportReason(of: error) == .cancelled, "\(String(describing: error))")
            #expect(!Task.isCancelled)
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases, [false, true])
        func callsAnsweredInTimeAnswerAsWithoutATimeout(transport: TransportKind, hedged: Bool) async throws {
            try await withBackend { _, url in
                let client = Self.client(url, transport, hedged: hedged) {
                    $0.timeout = .seconds(30)
                    $0.attemptTimeout = .seconds(30)
                }
                for _ in 0..<20 {
                    let item = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                    #expect(item == .one)
                }
            }
        }
    }
}
