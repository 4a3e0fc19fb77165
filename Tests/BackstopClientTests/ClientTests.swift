import Backstop
import Clocks
import Foundation
import Testing

extension BackstopClient {
    @Suite("Client against a real server")
    struct ClientTests {
        @Test(arguments: TransportKind.allCases)
        func getDecodesThePayloadOfTheEnvelope(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let client = makeClient(server, transport)
            let item = try await client.send(Endpoint<Item, ItemCode>(.get, "items/7"))
            #expect(item == Item(id: 7, name: "Item 7"))
        }

        @Test(arguments: TransportKind.allCases)
        func theWholeResponseHasStatusHeadersRepairsAndAttempts(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let client = makeClient(server, transport)
            let response = try await client.response(for: Endpoint<Item, ItemCode>(.get, "quoted/9"))
            #expect(response.status == .ok)
            #expect(response.headerFields[.contentType] == "application/json")
            #expect(response.payload == Item(id: 9, name: "Item 9"))
            #expect(response.repairs.map(\.path) == ["$.data.id"])
            #expect(response.attempts == 1)
            #expect(response.duration > .zero)
        }

        @Test(arguments: TransportKind.allCases)
        func postSendsTheEncodedBody(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let key = uniqueKey()
            let client = makeClient(server, transport)
            let item = try await client.send(Endpoint<Item, ItemCode>(.post, "echo/\(key)", body: Item(id: 3, name: "Três")))
            #expect(item == Item(id: 3, name: "Três"))
            let received = await server.state.bodies(key)
            #expect(received.count == 1)
            #expect(try JSONDecoder().decode(Item.self, from: received.first ?? Data()) == item)
        }

        @Test(arguments: TransportKind.allCases)
        func anErrorStatusKeepsItsHeadersAndEnvelope(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let client = makeClient(server, transport)
            let error = await failure(of: client, Endpoint<Item, ItemCode>(.get, "status/\(uniqueKey())", query: [
                URLQueryItem(name: "code", value: "503"), URLQueryItem(name: "retryAfter", value: "5"),
            ]))
            guard case .http(let http)? = error else {
                Issue.record("expected an HTTP failure, got \(String(describing: error))")
                return
            }
            #expect(http.status == .serviceUnavailable)
            #expect(http.headerFields[.retryAfter] == "5")
            #expect(http.code == RawServerCode(50300))
            #expect(http.message == "failing")
        }

        @Test func aBusinessCodeIsClassifiedForTheModule() async throws {
            let server = try await TestServer.running()
            let client = makeClient(server)
            let error = await failure(of: client, Endpoint<Item, ItemCode>(.get, "business/\(uniqueKey())", query: [
                URLQueryItem(name: "code", value: "40401"),
            ]))
            #expect(error == .server(.module(.notFound, message: "declined")))
        }

        @Test(arguments: TransportKind.allCases)
        func aRefusedConnectionCannotConnectToHost(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let client = makeClient(server, transport, baseURL: refusedURL)
            let error = await failure(of: client, Endpoint<Item, ItemCode>(.get, "items/1"))
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

        @Test(arguments: TransportKind.allCases)
        func cancellingTheTaskEndsTheCallAtOnceAsCancelled(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let key = uniqueKey()
            let client = makeClient(server, transport)
            let call = Task { await failure(of: client, Endpoint<Item, ItemCode>(.get, "slow/\(key)")) }
            await server.state.arrival(of: key)
            let cancelled = ContinuousClock.now
            call.cancel()
            let error = await call.value
            let elapsed = ContinuousClock.now - cancelled
            #expect(transportReason(of: error) == .cancelled)
            #expect(elapsed < .seconds(1), "took \(elapsed)")
        }

        @Test func aCallThatOutlivesItsTimeoutTimesOut() async throws {
            let server = try await TestServer.running()
            // The immediate clock makes every timeout pass at once; the slow route takes seconds.
            let client = makeClient(server, clock: ImmediateClock())
            let error = await failure(of: client, Endpoint<Item, ItemCode>(.get, "slow/\(uniqueKey())", timeout: .seconds(5)))
            guard case .transport(let failure)? = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                return
            }
            #expect(failure.reason == .timedOut)
            #expect(error?.description.contains("no response within 5.0 seconds") == true)
        }

        @Test(arguments: TransportKind.allCases)
        func aCallTimesOutOnTheClientsTestClock(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let key = uniqueKey()
            let clock = TestClock()
            let client = makeClient(server, transport, timeout: .seconds(5), clock: clock)
            let call = Task { await failure(of: client, Endpoint<Item, ItemCode>(.get, "slow/\(key)")) }
            await server.state.arrival(of: key)
            // The deadline was taken before the request left, so this passes it however the timer's task interleaves.
            await clock.advance(by: .seconds(5))
            let error = await call.value
            #expect(transportReason(of: error) == .timedOut)
            #expect(error?.description.contains("no response within 5.0 seconds") == true)
        }

        @Test(arguments: TransportKind.allCases)
        func aResponseOverTheLimitIsAnErrorNotARead(transport: TransportKind) async throws {
            let server = try await TestServer.running()
            let client = makeClient(server, transport, maximumResponseBytes: 1_000)
            let error = await failure(of: client, Endpoint<String, NoModuleCodes>(.get, "large", query: [
                URLQueryItem(name: "bytes", value: "5000"),
            ]))
            guard case .client(let failure)? = error else {
                Issue.record("expected a client failure, got \(String(describing: error))")
                return
            }
            #expect(failure.reason == .responseTooLarge)
            #expect(failure.detail == "the body is larger than the limit of 1000 bytes")
            let small = try await client.send(Endpoint<String, NoModuleCodes>(.get, "large", query: [
                URLQueryItem(name: "bytes", value: "10"),
            ]))
            #expect(small == "aaaaaaaaaa")
        }

        @Test func aPathThatMakesNoURLIsAClientErrorNamingIt() async throws {
            let server = try await TestServer.running()
            let client = makeClient(server)
            let error = await failure(of: client, Endpoint<Item, ItemCode>(.get, "files/100%zz"))
            guard case .client(let failure)? = error else {
                Issue.record("expected a client failure, got \(String(describing: error))")
                return
            }
            #expect(failure.reason == .invalidURL)
            #expect(failure.detail?.contains("\"files/100%zz\"") == true)
        }

        @Test func pathsAndQueriesArePercentEncoded() async throws {
            let server = try await TestServer.running()
            let suffix = UUID().uuidString.prefix(8)
            let client = makeClient(server)
            let item = try await client.send(Endpoint<Item, ItemCode>(.post, "echo/spaced key\(suffix)", query: [URLQueryItem(name: "q", value: "a+b c")],
                                                                      body: Item(id: 1, name: "x")))
            #expect(item == Item(id: 1, name: "x"))
            #expect(await server.state.hits("spaced%20key\(suffix)") == 1)
        }

        @Test func aBodyThatCannotBeEncodedIsAClientErrorNamingIt() async throws {
            let server = try await TestServer.running()
            let key = uniqueKey()
            let client = makeClient(server)
            let error = await failure(of: client, Endpoint<Item, ItemCode>(.post, "echo/\(key)", body: ["ratio": Double.nan]))
            guard case .client(let failure)? = error else {
                Issue.record("expected a client failure, got \(String(describing: error))")
                return
            }
            #expect(failure.reason == .unencodableBody)
            #expect(failure.detail?.contains("POST echo/\(key)") == true)
            #expect(await server.state.hits(key) == 0)
        }
    }
}
