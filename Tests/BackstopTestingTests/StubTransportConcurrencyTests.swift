import Backstop
import BackstopTesting
import Foundation
import Testing

// StubTransport shared by many calls and waiters at once; CI runs this under ThreadSanitizer.
@Suite(.timeLimit(.minutes(1))) struct StubTransportConcurrencyTests {
    @Test func manyCallsAreEachRecordedAndAnsweredInOrder() async throws {
        let transport = StubTransport()
        transport.stub(.get, "b/account", .json(#"{"code": 200, "msg": "OK", "data": {"id": 1, "name": "Ada"}}"#))
        let client = APIClient<AppCode>(
            baseURL: URL(string: "https://api.example.com")!, contract: backendB,
            pipeline: ClientPipeline(logging: nil, metrics: nil, retry: .never), transport: transport)
        async let waited = transport.requests(atLeast: 100)
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 {
                group.addTask { try await client.send(Endpoint<Account, NoModuleCodes>(.get, "b/account")).name }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names == Array(repeating: "Ada", count: 100))
        #expect(try await waited.count >= 100)
        #expect(transport.requests.count == 100)
    }

    @Test func waitersThatAreCancelledOrTimeOutEndAndTheOthersStillGetTheirRequests() async throws {
        let transport = StubTransport()
        transport.stub(.get, "b/account", .status(.noContent))
        let cancelled = Task { try await transport.requests(atLeast: 1) }
        cancelled.cancel()
        await #expect(throws: StubTransport.Unexpected.self) { try await cancelled.value }
        async let waited = transport.requests(atLeast: 2)
        await #expect(throws: StubTransport.Unexpected.self) { try await transport.requests(atLeast: 3, within: .milliseconds(1)) }
        for _ in 0..<2 {
            _ = try await transport.send(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/b/account"), body: nil,
                baseURL: URL(string: "https://api.example.com")!, operationID: "GET b/account")
        }
        #expect(try await waited.map(\.path) == ["/b/account", "/b/account"])
    }
}
