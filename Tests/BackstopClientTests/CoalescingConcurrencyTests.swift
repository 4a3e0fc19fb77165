import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
@_spi(Generated) import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// Identical GETs sharing one exchange; CI runs this suite under ThreadSanitizer.
    @Suite("Coalescing identical GETs", .timeLimit(.minutes(1)))
    struct CoalescingConcurrencyTests {
        static let slowPath = "/scenarios/slow/b/products/1"
        static let slow = Endpoint<Item, StudyGroupCode>(.get, String(slowPath.dropFirst()))

        /// A client on `transport` whose pipeline coalesces with the returned stage.
        static func coalescingClient(_ url: URL, _ transport: TransportKind) -> (RequestCoalescing, APIClient<GeneralCode>) {
            let coalescing = RequestCoalescing()
            return (coalescing, makeClient(url, transport, pipeline: quietPipeline { $0.coalescing = coalescing }))
        }

        /// Waits until `count` calls wait for the shared exchange, or the time limit cancels the test.
        static func waitUntil(_ coalescing: RequestCoalescing, hasWaiting count: Int) async {
            while coalescing.load.waitingCalls < count, !Task.isCancelled { await Task.yield() }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func fiftyIdenticalGETsSendOneRequestAndCallersLeaveAlone(transport: TransportKind) async throws {
            let serverClock = TestClock()
            try await withBackend(clock: serverClock) { backend, url in
                let (coalescing, client) = Self.coalescingClient(url, transport)
                let path = Self.slowPath
                let sender = Task { try await client.send(Self.slow) }
                _ = try await backend.requestLog.arrival()
                let others = (0..<49).map { _ in Task { try await client.send(Self.slow) } }
                await Self.waitUntil(coalescing, hasWaiting: 49)
                #expect(coalescing.load.exchanges == 1)

                // A waiting caller leaves: it ends now, the others still wait for the one exchange.
                others[0].cancel()
                await #expect(throws: APIError<GeneralCode, StudyGroupCode>.self) { _ = try await others[0].value }
                #expect(coalescing.load.waitingCalls == 48)
                #expect(await backend.hits(path) == 1)

                // The caller that sent the request leaves: its request goes with it, and the
                // longest-waiting caller sends it again for the others.
                sender.cancel()
                await #expect(throws: APIError<GeneralCode, StudyGroupCode>.self) { _ = try await sender.value }
                _ = try await backend.requestLog.entries(where: { $0.path == path }, atLeast: 2)
                #expect(coalescing.load.waitingCalls == 47)

                await serverClock.advance(by: .seconds(3600))
                for call in others.dropFirst() { #expect(try await call.value == .one) }
                #expect(await backend.hits(path) == 2)
                #expect(coalescing.load == (0, 0))
                // Nothing is cached: the next call sends its own request.
                _ = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                _ = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/1"))
                #expect(await backend.hits("/b/products/1") == 2)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func whenEveryCallerLeavesTheSharedExchangeIsCancelled(transport: TransportKind) async throws {
            let serverClock = TestClock()
            try await withBackend(clock: serverClock) { backend, url in
                let (coalescing, client) = Self.coalescingClient(url, transport)
                let calls = (0..<3).map { _ in Task { await failure(of: client, Self.slow) } }
                _ = try await backend.requestLog.arrival()
                // One of them sent the request; the other two wait for it.
                await Self.waitUntil(coalescing, hasWaiting: 2)
                for call in calls { call.cancel() }
                for call in calls { #expect(transportReason(of: await call.value) == .cancelled) }
                #expect(coalescing.load == (0, 0))
                // Different calls are not coalesced: another product is its own exchange.
                let other = try await client.send(Endpoint<Item, StudyGroupCode>(.get, "b/products/2"))
                #expect(other.id == 2)
            }
        }

        /// The header fields are part of what makes calls identical: a different value is another
        /// exchange, the same fields in another order the same one.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func callsAreIdenticalByTheirHeaderFieldsInAnyOrder(transport: TransportKind) async throws {
            let serverClock = TestClock()
            try await withBackend(clock: serverClock) { backend, url in
                let (coalescing, client) = Self.coalescingClient(url, transport)
                let path = Self.slowPath
                func endpoint(_ fields: [(HTTPField.Name, String)]) -> Endpoint<Item, StudyGroupCode> {
                    var endpoint = Self.slow
                    for (name, value) in fields { endpoint.headerFields.append(HTTPField(name: name, value: value)) }
                    return endpoint
                }
                let language = HTTPField.Name("Accept-Language")!
                let tenant = HTTPField.Name("X-Tenant")!
                let english = Task { try await client.send(endpoint([(language, "en"), (tenant, "7")])) }
                _ = try await backend.requestLog.arrival(where: { $0.path == path })
                let sameInAnotherOrder = Task { try await client.send(endpoint([(tenant, "7"), (language, "en")])) }
                await Self.waitUntil(coalescing, hasWaiting: 1)
                let french = Task { try await client.send(endpoint([(language, "fr"), (tenant, "7")])) }
                _ = try await backend.requestLog.entries(where: { $0.path == path }, atLeast: 2)
                #expect(coalescing.load == (2, 1))

                await serverClock.advance(by: .seconds(3600))
                for call in [english, sameInAnotherOrder, french] { #expect(try await call.value == .one) }
                #expect(await backend.hits(path) == 2)
                #expect(coalescing.load == (0, 0))
            }
        }

        /// Through `PipelineMiddleware` as through `APIClient`, the exchange runs in the task of
        /// the caller that sent it: when that caller leaves, the longest-waiting one sends it again.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aGeneratedClientsIdenticalGETsShareOneRequestAndALeavingSenderHandsItOver(transport: TransportKind) async throws {
            let serverClock = TestClock()
            try await withBackend(clock: serverClock) { backend, url in
                let coalescing = RequestCoalescing()
                let client = UniversalClient(
                    serverURL: url, transport: transport.make(),
                    middlewares: [
                        PipelineMiddleware(
                            quietPipeline { $0.coalescing = coalescing }, contract: EnvelopeContract.b, generalCodes: GeneralCode.self)
                    ])
                let path = Self.slowPath
                let sender = Task { try await GeneratedClientTests.getItem(client, path: path) }
                _ = try await backend.requestLog.arrival(where: { $0.path == path })
                let others = (0..<20).map { _ in Task { try await GeneratedClientTests.getItem(client, path: path) } }
                await Self.waitUntil(coalescing, hasWaiting: 20)
                #expect(coalescing.load.exchanges == 1)
                #expect(await backend.hits(path) == 1)

                sender.cancel()
                let error = await #expect(throws: (any Error).self) { _ = try await sender.value }
                #expect(error.map { TransportFailure($0).reason } == .cancelled, "\(String(describing: error))")
                _ = try await backend.requestLog.entries(where: { $0.path == path }, atLeast: 2)
                #expect(coalescing.load.waitingCalls == 19)

                await serverClock.advance(by: .seconds(3600))
                for call in others { #expect(try await call.value.status == 200) }
                #expect(await backend.hits(path) == 2)
                #expect(coalescing.load == (0, 0))
            }
        }
    }
}
