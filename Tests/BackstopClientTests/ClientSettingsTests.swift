import Backstop
import BackstopTestSupport
import BackstopTesting
import Foundation
import Testing

extension BackstopClient {
    /// A client's contract and decoder, changed after it is made, take effect from the next
    /// call: for the payload, and for the codes the stages act on.
    @Suite("Client settings")
    struct ClientSettingsTests {
        struct Item: Decodable, Sendable, Equatable {
            var id: Int
        }

        @Test func aNewDecoderDecidesTheNextCall() async throws {
            let transport = StubTransport()
            transport.stub(.get, "items/1", .json(#"{"id": "42"}"#), .json(#"{"id": "42"}"#))
            var client = makeClient(transport)
            let endpoint = Endpoint<Item, NoModuleCodes>(.get, "items/1")
            #expect(try await client.send(endpoint) == Item(id: 42))

            client.decoder = ResilientJSONDecoder(policy: .strict)
            await #expect {
                try await client.send(endpoint)
            } throws: { error in
                guard case APIError<GeneralCode, NoModuleCodes>.decoding = error else { return false }
                return true
            }
        }

        @Test func aNewContractReadsTheNextCallsCodes() async throws {
            let transport = StubTransport()
            let rateLimited = #"{"code": 10429, "msg": "slow down", "data": null}"#
            let answer = #"{"code": 200, "msg": "OK", "data": {"id": 7}}"#
            transport.stub(.get, "items/7", .json(rateLimited), .json(answer))
            // Retries what the codes call rate-limited, at once, on the system's clock.
            var client = makeClient(
                transport,
                pipeline: quietPipeline {
                    $0.retry = RetryPolicy(exponentialBackoffScale: .zero)
                    $0.clock = ContinuousClock()
                })
            client.contract = EnvelopeContract.b

            #expect(try await client.send(Endpoint<Item, NoModuleCodes>(.get, "items/7")) == Item(id: 7))
            #expect(transport.requests.count == 2)
        }
    }
}
