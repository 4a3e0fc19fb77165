import Backstop
import BackstopTesting
import Clocks
import Foundation
import HTTPTypes
import Testing

// StubTransport's rules (its DocC comment), through an APIClient as an app's tests use it.
@Suite struct StubTransportTests {
    let transport: StubTransport
    let client: APIClient<AppCode>

    init(clock: any Clock<Duration> = ImmediateClock()) {
        transport = StubTransport(clock: clock)
        client = APIClient<AppCode>(
            baseURL: URL(string: "https://api.example.com")!, contract: backendB,
            // No total timeout: delays wait on the test's clock, and a real 30 s deadline would
            // only measure how busy the machine is.
            pipeline: ClientPipeline(logging: nil, metrics: nil, timeout: nil, retry: .never), transport: transport)
    }

    @Test func theDocumentationsExampleAnswersItsStub() async throws {
        let transport = StubTransport()
        transport.stub(.get, "b/account", .json(#"{"code": 200, "msg": "OK", "data": {"id": 1, "name": "Ada"}}"#))
        let client = APIClient<AppCode>(
            baseURL: URL(string: "https://api.example.com")!, contract: backendB, transport: transport)
        let account = try await client.send(Endpoint<Account, NoModuleCodes>(.get, "b/account"))
        #expect(account == Account(id: 1, name: "Ada"))
    }

    @Test func aRequestIsRecordedWithItsMethodPathHeadersAndBody() async throws {
        transport.stub(.post, "/b/auth/sign-in", .json(#"{"code": 200, "msg": "OK", "data": {"id": 2, "name": "Grace"}}"#))
        let account = try await client.send(
            Endpoint<Account, NoModuleCodes>(
                .post, "b/auth/sign-in", query: [URLQueryItem(name: "remember", value: "1")], body: ["user": "grace"]))
        #expect(account == Account(id: 2, name: "Grace"))
        let request = try #require(transport.requests.first)
        #expect(transport.requests.count == 1)
        #expect(request.method == .post)
        #expect(request.path == "/b/auth/sign-in?remember=1")
        #expect(request.headerFields[.contentType] == "application/json")
        #expect(try JSONDecoder().decode([String: String].self, from: request.body) == ["user": "grace"])
        #expect(request.baseURL == URL(string: "https://api.example.com")!)
    }

    @Test func responsesAnswerInOrderAndTheLastRepeats() async throws {
        transport.stub(
            .get, "b/account",
            .json(#"{"code": 10503, "msg": "Down for maintenance", "data": null}"#),
            .json(#"{"code": 200, "msg": "OK", "data": {"id": 1, "name": "Ada"}}"#))
        let endpoint = Endpoint<Account, NoModuleCodes>(.get, "b/account")
        await #expect(throws: APIError<AppCode, NoModuleCodes>.self) { try await client.send(endpoint) }
        #expect(try await client.send(endpoint) == Account(id: 1, name: "Ada"))
        #expect(try await client.send(endpoint) == Account(id: 1, name: "Ada"))
        #expect(transport.requests.count == 3)
    }

    @Test func responsesBuiltAsAnArrayAnswerInOrderAndTheLastRepeats() async throws {
        let down = StubResponse.json(#"{"code": 10503, "msg": "Down for maintenance", "data": null}"#)
        transport.stub(
            .get, "b/account",
            responses: Array(repeating: down, count: 3) + [.json(#"{"code": 200, "msg": "OK", "data": {"id": 1, "name": "Ada"}}"#)])
        let endpoint = Endpoint<Account, NoModuleCodes>(.get, "b/account")
        for _ in 0..<3 {
            await #expect(throws: APIError<AppCode, NoModuleCodes>.self) { try await client.send(endpoint) }
        }
        #expect(try await client.send(endpoint) == Account(id: 1, name: "Ada"))
        #expect(try await client.send(endpoint) == Account(id: 1, name: "Ada"))
        #expect(transport.requests.count == 5)
    }

    @Test func anAnswerIsMadeFromEachRequestAsReceived() async throws {
        transport.stub(.get, "b/account") { request in
            let name = request.headerFields[.authorization] == "Bearer ada" ? "Ada" : "Anonymous"
            return .json(#"{"code": 200, "msg": "OK", "data": {"id": 1, "name": "\#(name)"}}"#)
        }
        let endpoint = Endpoint<Account, NoModuleCodes>(.get, "b/account")
        let signedIn = Endpoint<Account, NoModuleCodes>(.get, "b/account", headerFields: [.authorization: "Bearer ada"])
        #expect(try await client.send(signedIn).name == "Ada")
        #expect(try await client.send(endpoint).name == "Anonymous")
        #expect(transport.requests.map { $0.headerFields[.authorization] } == ["Bearer ada", nil])
    }

    @Test func aStubWithAQueryMatchesOnlyThatQueryAndALaterStubReplaces() async throws {
        transport.stub(.get, "b/account?page=2", .json(#"{"code": 200, "msg": "OK", "data": {"id": 2, "name": "Page two"}}"#))
        transport.stub(.get, "b/account", .json(#"{"code": 200, "msg": "OK", "data": {"id": 0, "name": "Old"}}"#))
        transport.stub(.get, "b/account", .json(#"{"code": 200, "msg": "OK", "data": {"id": 1, "name": "Any page"}}"#))
        let second = try await client.send(
            Endpoint<Account, NoModuleCodes>(.get, "b/account", query: [URLQueryItem(name: "page", value: "2")]))
        let third = try await client.send(
            Endpoint<Account, NoModuleCodes>(.get, "b/account", query: [URLQueryItem(name: "page", value: "3")]))
        #expect(second.name == "Page two")
        #expect(third.name == "Any page")
    }

    @Test func aStatusWithHeadersIsTheClientsHTTPError() async throws {
        transport.stub(.get, "b/account", .status(.serviceUnavailable, headerFields: [.retryAfter: "120"]))
        do {
            _ = try await client.send(Endpoint<Account, NoModuleCodes>(.get, "b/account"))
            Issue.record("expected a 503")
        } catch {
            guard case .http(let failure) = error else { throw error }
            #expect(failure.status == .serviceUnavailable)
            #expect(failure.headerFields[.retryAfter] == "120")
        }
    }

    @Test func aFailureIsThrownAsTheTransportsOwn() async throws {
        transport.stub(.get, "b/account", .failure(URLError(.notConnectedToInternet)))
        do {
            _ = try await client.send(Endpoint<Account, NoModuleCodes>(.get, "b/account"))
            Issue.record("expected offline")
        } catch {
            guard case .transport(let failure) = error else { throw error }
            #expect(failure.reason == .offline)
        }
    }

    @Test func aRequestWithoutAStubFailsNamingItAndTheStubs() async throws {
        transport.stub(.get, "b/account", .status(.ok))
        do {
            _ = try await client.send(Endpoint<Account, NoModuleCodes>(.delete, "b/account"))
            Issue.record("expected no stub")
        } catch {
            guard case .transport(let failure) = error else { throw error }
            let unexpected = try #require(failure.underlying?.error as? StubTransport.Unexpected)
            #expect(unexpected.description == "no stub for DELETE /b/account; stubbed: GET /b/account")
        }
        #expect(transport.requests.map(\.method) == [.delete])
    }

    /// A canned response's delay, or that of an answer made from the request, counts from the
    /// request's arrival.
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func aDelayedResponseComesWhenTheTestClockReachesIt(madeFromTheRequest: Bool) async throws {
        let clock = TestClock()
        let test = StubTransportTests(clock: clock)
        let response = StubResponse.json(#"{"code": 200, "msg": "OK", "data": {"id": 1, "name": "Ada"}}"#).delayed(by: .seconds(5))
        if madeFromTheRequest {
            test.transport.stub(.get, "b/account") { _ in response }
        } else {
            test.transport.stub(.get, "b/account", response)
        }
        let call = Task { try await test.client.send(Endpoint<Account, NoModuleCodes>(.get, "b/account")) }
        _ = try await test.transport.requests(atLeast: 1)
        // The delay counts from the request's arrival, whenever its sleep starts: 4 s in, then
        // 5 s in, the answer comes. (Whether it is still waiting at 4 s cannot be asked of the
        // clock without racing the sleep's start, which a busy machine loses.)
        await clock.advance(by: .seconds(4))
        await clock.advance(by: .seconds(1))
        #expect(try await call.value == Account(id: 1, name: "Ada"))
    }

    @Test func cancellingACallEndsItsDelay() async throws {
        let clock = TestClock()
        let test = StubTransportTests(clock: clock)
        test.transport.stub(.get, "b/account", StubResponse(status: .ok).delayed(by: .seconds(5)))
        let call = Task { try await test.client.send(Endpoint<Account, NoModuleCodes>(.get, "b/account")) }
        _ = try await test.transport.requests(atLeast: 1)
        call.cancel()
        do {
            _ = try await call.value
            Issue.record("expected cancelled")
        } catch let error as APIError<AppCode, NoModuleCodes> {
            guard case .transport(let failure) = error else { throw error }
            #expect(failure.reason == .cancelled)
        }
    }

    @Test func waitingForRequestsThatNeverComeEndsWithWhatArrived() async throws {
        do {
            _ = try await transport.requests(atLeast: 2, within: .milliseconds(1))
            Issue.record("expected none to arrive")
        } catch {
            #expect(error.description == "0 of 2 requests arrived within 0.001 seconds")
        }
    }
}
