import Backstop
import BackstopTestSupport
import BadBackend
import Clocks
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// Which refresh failures end a session and which keep it: a phone in a tunnel must not sign its user out.
    @Suite("Transient and final refresh failures")
    struct RefreshFailureTests {
        static let both = TransportKind.allCases

        /// A session whose refresh fails while the token has expired; `configure` shapes the refresher's pipeline.
        @available(macOS 14, iOS 17, tvOS 17, *)
        static func expiredSession(
            _ transport: TransportKind, refresh: RefreshBehaviour, refreshTimeout: Duration? = .seconds(30),
            refresher configure: @escaping (inout ClientPipeline) -> Void = { _ in },
            _ body: (BadBackend, AuthSession<BadBackendAuthenticator>, APIClient<GeneralCode>, TestClock<Duration>) async throws -> Void
        ) async throws {
            let clock = TestClock()
            let configuration = BadBackend.Configuration(
                accessTokenLifetime: Session.lifetime, refresh: refresh,
                slowAnswerDelay: .seconds(120))
            try await withBackend(configuration, clock: clock) { backend, url in
                let refresher = makeClient(url, transport, pipeline: quietPipeline(configure))
                let credential = try await makeClient(url, transport).signIn(clock)
                let session = AuthSession(
                    authenticator: BadBackendAuthenticator(refresher: refresher, clock: clock, knowsExpiry: false),
                    credential: credential, refreshTimeout: refreshTimeout, clock: clock)
                let client = makeClient(url, transport, pipeline: quietPipeline { $0.authentication = .session(session) })
                await clock.advance(by: Session.lifetime + .seconds(1))
                try await body(backend, session, client, clock)
            }
        }

        static func account(_ client: APIClient<GeneralCode>) async -> Result<Account, SessionError> {
            do {
                return .success(try await client.send(Endpoint<Account, NoModuleCodes>(.get, "b/account")))
            } catch {
                return .failure(error)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a 503 during the refresh fails the waiting calls with it and keeps the session", arguments: both)
        func unavailableKeepsTheSession(transport: TransportKind) async throws {
            try await Self.expiredSession(transport, refresh: .unavailable) { backend, session, client, _ in
                let errors = await withTaskGroup(of: SessionError?.self) { group in
                    for _ in 0..<5 { group.addTask { await Self.account(client).failure } }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                #expect(errors.count == 5)
                for error in errors {
                    guard case .http(let failure)? = error else {
                        Issue.record("expected the refresh's 503, got \(String(describing: error))")
                        continue
                    }
                    #expect(failure.status == .serviceUnavailable)
                    #expect(error?.recoveryCategory != .unauthorized)
                }
                #expect(session.credential?.access == "access-1")
                // The backend is back: the next call refreshes again and gets through.
                await backend.setRefreshBehaviour(.succeeds)
                #expect(await Self.account(client) == .success(Account(id: 1)))
                #expect(session.credential?.access == "access-2")
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("no network during the refresh fails the waiting calls as offline and keeps the session", arguments: both)
        func offlineKeepsTheSession(transport: TransportKind) async throws {
            let network = Network()
            try await Self.expiredSession(transport, refresh: .succeeds, refresher: { $0.middlewares = [network] }) {
                _, session, client, _ in
                network.isOnline = false
                let error = await Self.account(client).failure
                #expect(transportReason(of: error) == .offline, "\(String(describing: error))")
                #expect(session.credential?.access == "access-1")
                network.isOnline = true
                #expect(await Self.account(client) == .success(Account(id: 1)))
                #expect(session.credential?.access == "access-2")
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a refresh that times out fails the waiting calls as timed out and keeps the session", arguments: both)
        func timeoutKeepsTheSession(transport: TransportKind) async throws {
            // The refresher's timeout runs on a clock of its own; the slow refresh waits on the server's.
            let refresherClock = TestClock()
            try await Self.expiredSession(
                transport, refresh: .slow,
                refresher: {
                    $0.timeout = .seconds(10)
                    $0.timeoutClock = refresherClock
                }
            ) { backend, session, client, _ in
                let call = Task { await Self.account(client) }
                _ = try await backend.requestLog.arrival { $0.path.hasSuffix("/auth/refresh") }
                await refresherClock.advance(by: .seconds(10))
                let error = await call.value.failure
                #expect(transportReason(of: error) == .timedOut, "\(String(describing: error))")
                #expect(session.credential?.access == "access-1")
                await backend.setRefreshBehaviour(.succeeds)
                #expect(await Self.account(client) == .success(Account(id: 1)))
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a refresh rejected with 400 or 401 ends the session", arguments: both, [RefreshBehaviour.rejected, .fails])
        func rejectionEndsTheSession(transport: TransportKind, refresh: RefreshBehaviour) async throws {
            try await Self.expiredSession(transport, refresh: refresh) { _, session, client, _ in
                let signedOut = session.signedOutEvents
                let error = await Self.account(client).failure
                #expect(error?.clientReason == .tokenRefreshFailed)
                #expect(error?.recoveryCategory == .unauthorized)
                #expect(session.credential == nil)
                var events = signedOut.makeAsyncIterator()
                #expect(await events.next()?.reason == .refreshFailed)
            }
        }

        /// The refresh is held on the server's clock: the cancelled call cannot have waited for it.
        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test("a call waiting for a refresh ends at once when cancelled; the refresh goes on for the others", arguments: both)
        func aWaitingCallIsCancellable(transport: TransportKind) async throws {
            // The refresh is held for 120 s: a timeout of its own longer than that.
            try await Self.expiredSession(transport, refresh: .slow, refreshTimeout: .seconds(300)) { backend, _, client, clock in
                let first = Task { await Self.account(client) }
                _ = try await backend.requestLog.arrival { $0.path.hasSuffix("/auth/refresh") }
                let waiting = Task { await Self.account(client) }
                waiting.cancel()
                #expect(transportReason(of: await waiting.value.failure) == .cancelled)
                // Only now does the refresh end, past its deadline on the server's clock.
                await clock.advance(by: .seconds(121))
                #expect(await first.value == .success(Account(id: 1)))
                #expect(await backend.requestLog.entries.count { $0.path.hasSuffix("/auth/refresh") } == 1)
            }
        }
    }
}

/// The device's network as the app's own middleware sees it: offline, a request fails as URLSession fails it.
final class Network: ClientMiddleware, @unchecked Sendable {
    private let lock = NSLock()
    private var online = true

    var isOnline: Bool {
        get { lock.withLock { online } }
        set { lock.withLock { online = newValue } }
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard isOnline else { throw URLError(.notConnectedToInternet) }
        return try await next(request, body, baseURL)
    }
}
