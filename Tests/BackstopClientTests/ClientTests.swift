import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import Testing

extension BackstopClient {
    @Suite("Client against a real server")
    struct ClientTests {
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func getDecodesThePayloadOfTheEnvelope(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let client = makeClient(url, transport)
                let item = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                #expect(item == .one)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func theWholeResponseHasStatusHeadersRepairsAndAttempts(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let client = makeClient(url, transport)
                let response = try await client.response(
                    for: Endpoint<Item, StudyGroupCode>(.get, "scenarios/numbers-as-strings/b/products/1"))
                #expect(response.status == .ok)
                #expect(response.headerFields[.contentType] == "application/json; charset=utf-8")
                #expect(response.payload == .one)
                #expect(response.repairs.map(\.path) == ["$.data.id"])
                #expect(response.attempts == 1)
                #expect(response.duration > .zero)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func postSendsTheEncodedBody(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let client = makeClient(url, transport)
                let item = Item(id: 3, name: "Três")
                let echo = try await client.send(Endpoint<Echo<Item>, StudyGroupCode>(.post, "b/echo", body: item))
                #expect(echo.body == item)
                #expect(echo.method == "POST")
                #expect(echo.headers["content-type"] == "application/json")
                let received = await backend.requestLog.entries.compactMap(\.body)
                #expect(received.count == 1)
                #expect(try JSONDecoder().decode(Item.self, from: received.first ?? Data()) == item)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func anErrorStatusKeepsItsHeadersAndEnvelope(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let client = makeClient(url, transport)
                let error = await failure(
                    of: client,
                    Endpoint<Item, StudyGroupCode>(
                        .get, "scenarios/http-503/b/products/1",
                        query: [
                            URLQueryItem(name: "retryAfter", value: "5")
                        ]))
                guard case .http(let http)? = error else {
                    Issue.record("expected an HTTP failure, got \(String(describing: error))")
                    return
                }
                #expect(http.status == .serviceUnavailable)
                #expect(http.headerFields[.retryAfter] == "5")
                #expect(http.code == RawServerCode(50300))
                #expect(http.message == "Service Unavailable")
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func aBusinessCodeIsClassifiedForTheModule() async throws {
            try await withBackend { _, url in
                let client = makeClient(url)
                let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/class-not-found/b/products/1"))
                #expect(error == .server(.module(.classNotFound, message: "Class not found")))
            }
        }

        /// A backend that sends its business codes with 4xx statuses: the error is `.http`, and the
        /// feature's `switch` over its module codes still reaches them through `serverError`.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aBusinessCodeSentWithA4xxReachesTheModulesCases(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let client = makeClient(url, transport)
                let error = await failure(
                    of: client,
                    Endpoint<Item, StudyGroupCode>(
                        .get, "scenarios/class-not-found/b/products/1",
                        query: [URLQueryItem(name: "status", value: "404")]))
                #expect(error?.layer == .http)
                #expect(error?.serverError == .module(.classNotFound, message: "Class not found"))
                #expect(await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))?.serverError == nil)
            }
        }

        @Test(arguments: TransportKind.allCases)
        func aRefusedConnectionCannotConnectToHost(transport: TransportKind) async throws {
            let client = makeClient(refusedURL, transport)
            let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
            guard case .transport(let failure)? = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                return
            }
            #expect(failure.reason == .cannotConnectToHost)
            switch transport {
            case .urlSession:
                #expect(failure.underlying?.domain == NSURLErrorDomain)
                #expect(failure.underlying?.code == URLError.cannotConnectToHost.rawValue)
            case .asyncHTTPClient:
                #expect(failure.underlying.map { String(reflecting: type(of: $0.error)) }?.hasSuffix(".IOError") == true)
            }
        }

        /// The slow answer waits on the server's test clock, which nobody advances, and the 30 s
        /// timeout on a clock that does not move either: only the cancellation can end the call,
        /// so ending at all proves it ended on the cancellation (the time limit only stops a hang).
        /// The server drops the answer when it stops. With a timeout the exchange runs in its own
        /// task, without one in the caller's: both hear it.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(.timeLimit(.minutes(1)), arguments: TransportKind.allCases, [nil, Duration.seconds(30)])
        func cancellingTheTaskEndsTheCallAtOnceAsCancelled(transport: TransportKind, timeout: Duration?) async throws {
            try await withBackend { backend, url in
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.timeout = timeout
                        $0.clock = TestClock()
                    })
                let call = Task { await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1")) }
                _ = try await backend.requestLog.arrival()
                call.cancel()
                #expect(transportReason(of: await call.value) == .cancelled)
            }
        }

        /// On an immediate clock any timeout would pass at once; with none, a slow call waits for
        /// the transport until its task is cancelled.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func withoutATimeoutTheClientsClockEndsNoCall() async throws {
            try await withBackend { backend, url in
                let client = makeClient(url, pipeline: quietPipeline { $0.clock = ImmediateClock() })
                #expect(client.pipeline.timeout == nil)
                let call = Task { await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1")) }
                _ = try await backend.requestLog.arrival()
                call.cancel()
                #expect(transportReason(of: await call.value) == .cancelled)
            }
        }

        /// A client without a timeout leaves each attempt to the transport's own. The transports
        /// time out on the wall clock, not an injected one: the shortest wait that is still a
        /// wait is the test's whole cost.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func withoutATimeoutTheTransportsOwnEndsACallAsTimedOut(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let client = APIClient<GeneralCode>(
                    baseURL: url, contract: EnvelopeContract.b,
                    transport: transport.make(requestTimeout: 0.2))
                let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1"))
                #expect(transportReason(of: error) == .timedOut, "\(String(describing: error))")
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func aCallThatOutlivesItsTimeoutTimesOut() async throws {
            try await withBackend { _, url in
                // An immediate timeout clock makes every timeout pass at once; the slow answer waits on a clock nobody advances.
                let client = makeClient(url, pipeline: quietPipeline { $0.timeoutClock = ImmediateClock() })
                let error = await failure(
                    of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1", timeout: .seconds(5)))
                guard case .transport(let failure)? = error else {
                    Issue.record("expected a transport failure, got \(String(describing: error))")
                    return
                }
                #expect(failure.reason == .timedOut)
                #expect(error?.description.contains("no response within 5 s") == true)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aCallTimesOutOnTheClientsTestClock(transport: TransportKind) async throws {
            try await withBackend { backend, url in
                let clock = TestClock()
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.timeout = .seconds(5)
                        $0.clock = clock
                        $0.timeoutClock = clock
                    })
                let call = Task { await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/slow/b/products/1")) }
                _ = try await backend.requestLog.arrival()
                // The deadline was taken before the request left, so this passes it however the timer's task interleaves.
                await clock.advance(by: .seconds(5))
                let error = await call.value
                #expect(transportReason(of: error) == .timedOut)
                #expect(error?.description.contains("no response within 5 s") == true)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aResponseOverTheLimitIsAnErrorNotARead(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let client = makeClient(url, transport, pipeline: quietPipeline { $0.maximumResponseBytes = 1_000 })
                let error = await failure(of: client, Endpoint<String, NoModuleCodes>(.get, "b/sized/5000"))
                guard case .client(let failure)? = error else {
                    Issue.record("expected a client failure, got \(String(describing: error))")
                    return
                }
                #expect(failure.reason == .responseTooLarge)
                #expect(failure.detail == "the body is larger than the limit of 1000 bytes")
                let small = try await client.send(Endpoint<String, NoModuleCodes>(.get, "b/sized/10"))
                #expect(small == "aaaaaaaaaa")
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func aPathThatMakesNoURLIsAClientErrorNamingIt() async throws {
            try await withBackend { backend, url in
                let client = makeClient(url)
                let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "files/100%zz"))
                guard case .client(let failure)? = error else {
                    Issue.record("expected a client failure, got \(String(describing: error))")
                    return
                }
                #expect(failure.reason == .invalidURL)
                #expect(failure.detail?.contains("\"files/100%zz\"") == true)
                #expect(await backend.requestLog.entries.isEmpty)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func pathsAndQueriesArePercentEncoded() async throws {
            try await withBackend { backend, url in
                let client = makeClient(url)
                let echo = try await client.send(
                    Endpoint<Echo<Item>, StudyGroupCode>(
                        .post, "b/echo/spaced key", query: [URLQueryItem(name: "q", value: "a+b c")], body: Item(id: 1, name: "x")))
                #expect(echo.body == Item(id: 1, name: "x"))
                #expect(await backend.hits("/b/echo/spaced%20key") == 1)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test func aBodyThatCannotBeEncodedIsAClientErrorNamingIt() async throws {
            try await withBackend { backend, url in
                let client = makeClient(url)
                let error = await failure(of: client, Endpoint<Item, StudyGroupCode>(.post, "b/echo", body: ["ratio": Double.nan]))
                guard case .client(let failure)? = error else {
                    Issue.record("expected a client failure, got \(String(describing: error))")
                    return
                }
                #expect(failure.reason == .unencodableBody)
                #expect(failure.detail?.contains("POST b/echo") == true)
                #expect(await backend.requestLog.entries.isEmpty)
            }
        }
    }
}
