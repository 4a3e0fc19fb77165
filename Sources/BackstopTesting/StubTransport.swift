import Backstop
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A `ClientTransport` that answers from canned responses: unit tests of an app's calls
/// without a server.
///
/// Give it to an `APIClient` (or a generated client) in place of URLSession's transport, say
/// what each method and path answers with ``stub(_:_:_:)`` (or ``stub(_:_:responses:)``, or
/// ``stub(_:_:answer:)`` for an answer made from the request), and assert on ``requests``. The
/// rules:
///
/// - A request is answered by the stub for its method and path. The path is the request's,
///   relative to the client's base URL; a leading `/` is optional, and the query is ignored
///   unless the stub's path has one (`items?page=2`), which must then match as sent.
/// - A stub's responses answer one request each, in order; the last keeps answering. A stub's
///   `answer` closure answers every request, from the request as received. A later stub for
///   the same method and path replaces the earlier one.
/// - A request no stub matches throws ``Unexpected``, which names it and the stubs there are;
///   through an `APIClient` that is a `.transport` error.
/// - Every request is recorded, its body read whole (at most ``bodyLimit`` bytes), before it
///   is answered: ``requests`` holds them in arrival order.
/// - A delayed response (``StubResponse/delayed(by:)``) waits on the transport's clock, counted
///   from the request's arrival. With swift-clocks' `TestClock`, wait for the request with
///   ``requests(atLeast:within:)`` and then `advance(by:)` the delay: the response comes, however
///   the two interleave. Cancelling the call ends the wait with `CancellationError`.
/// - A failure (``StubResponse/failure(_:)``) is thrown as the transport's own error, so the
///   client classifies it as it would URLSession's: `URLError(.notConnectedToInternet)` is
///   `.transport` `offline`.
///
/// ```swift
/// let transport = StubTransport()
/// transport.stub(.get, "b/account", .json(#"{"code": 200, "msg": "OK", "data": {"id": 1, "name": "Ada"}}"#))
/// let client = APIClient<AppCode>(
///     baseURL: URL(string: "https://api.example.com")!, contract: backendB, transport: transport)
/// let account = try await client.send(Endpoint<Account, NoModuleCodes>(.get, "b/account"))
/// ```
public final class StubTransport: ClientTransport, Sendable {
    /// The most bytes of a request body the transport reads and records; a larger body fails
    /// the request with ``Unexpected``.
    public static let bodyLimit = 8 * 1024 * 1024

    let clock: any Clock<Duration>
    let state = LockedValue(State())

    /// A transport with no stubs yet, whose delays wait on `clock`.
    ///
    /// - Parameter clock: What delayed responses wait on: swift-clocks' `TestClock` holds them
    ///   until the test advances it, `ImmediateClock` answers them at once.
    public init(clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
    }

    /// Answers requests for `method` and `path` with `responses`, one each in order, the last
    /// repeated; replaces an earlier stub for the same method and path.
    ///
    /// - Parameters:
    ///   - method: The request's method.
    ///   - path: The path relative to the client's base URL (`b/account` or `/b/account`); with
    ///     a query (`items?page=2`) only requests with exactly that query match.
    ///   - responses: What the requests get; with none, a 404.
    public func stub(_ method: HTTPRequest.Method, _ path: String, _ responses: StubResponse...) {
        stub(method, path, responses: responses)
    }

    /// Answers requests for `method` and `path` with `responses`, one each in order, the last
    /// repeated; replaces an earlier stub for the same method and path.
    ///
    /// The same as ``stub(_:_:_:)``, for responses a test builds, such as twenty 503s and
    /// then an answer.
    ///
    /// - Parameters:
    ///   - method: The request's method.
    ///   - path: The path relative to the client's base URL, matched as ``stub(_:_:_:)`` says.
    ///   - responses: What the requests get; with none, a 404.
    public func stub(_ method: HTTPRequest.Method, _ path: String, responses: [StubResponse]) {
        add(Key(method: method, path: path), .responses(responses.isEmpty ? [.status(.notFound)] : responses))
    }

    /// Answers each request for `method` and `path` with what `answer` makes of it; replaces an
    /// earlier stub for the same method and path.
    ///
    /// For an answer that depends on the request: its headers (the credential it carries), its
    /// base URL or its body. `answer` runs once per request, after the request is recorded in
    /// ``requests``, outside the transport's lock; its response's delay counts from the
    /// request's arrival, as a canned response's does.
    ///
    /// - Parameters:
    ///   - method: The request's method.
    ///   - path: The path relative to the client's base URL, matched as ``stub(_:_:_:)`` says.
    ///   - answer: Makes the response to one request, as it was received.
    public func stub(
        _ method: HTTPRequest.Method, _ path: String, answer: @escaping @Sendable (ReceivedRequest) -> StubResponse
    ) {
        add(Key(method: method, path: path), .answer(answer))
    }

    private func add(_ key: Key, _ answers: Answers) {
        state.withLock { state in
            state.stubs.removeAll { $0.key == key }
            state.stubs.append(Stub(key: key, answers: answers))
        }
    }

    /// The requests the transport received, in the order they arrived.
    public var requests: [ReceivedRequest] {
        state.withLock { $0.received }
    }

    /// Sends nothing: records `request` and answers it from its stub.
    ///
    /// - Parameters:
    ///   - request: The request the client made; its path is matched against the stubs.
    ///   - body: The request's body, read whole and recorded.
    ///   - baseURL: The client's base URL, recorded.
    ///   - operationID: The call's operation name, recorded.
    /// - Returns: The stubbed response and its body.
    /// - Throws: ``Unexpected`` when no stub matches or the body is too large; a stubbed
    ///   ``StubResponse/failure(_:)``; `CancellationError` when the call is cancelled during a delay.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        // The delay counts from here, so a test clock advanced once the request is recorded
        // always reaches it.
        let wait = Self.wait(on: clock)
        let bytes: Data
        do {
            bytes = try await Data(collecting: body ?? HTTPBody(), upTo: Self.bodyLimit)
        } catch {
            throw Unexpected(description: "\(Self.line(of: request))'s body could not be read whole: \(error)")
        }
        let received = ReceivedRequest(
            method: request.method, path: request.path ?? "", headerFields: request.headerFields, body: bytes,
            baseURL: baseURL, operationID: operationID)
        let matched = state.withLock { state -> Result<@Sendable (ReceivedRequest) -> StubResponse, Unexpected> in
            state.received.append(received)
            state.wakeWaiters()
            guard let index = state.stubs.firstIndex(where: { $0.key.matches(received) }) else {
                let stubs = state.stubs.map { "\($0.key)" }.joined(separator: ", ")
                return .failure(
                    Unexpected(description: "no stub for \(Self.line(of: request)); stubbed: \(stubs.isEmpty ? "nothing" : stubs)"))
            }
            return .success(state.stubs[index].next())
        }
        let response = try matched.get()(received)
        if response.delay > .zero {
            try await wait(response.delay)
        }
        return try response.answer()
    }

    /// A wait until a delay after now, on `clock` opened to its own type.
    private static func wait(on clock: any Clock<Duration>) -> @Sendable (Duration) async throws -> Void {
        wait(onClock: clock)
    }

    private static func wait<C: Clock<Duration>>(onClock clock: C) -> @Sendable (Duration) async throws -> Void {
        let start = clock.now
        return { delay in
            let deadline = start.advanced(by: delay)
            // A test clock already moved to the deadline wakes no sleep that starts after it.
            guard clock.now < deadline else { return }
            try await clock.sleep(until: deadline, tolerance: nil)
        }
    }

    private static func line(of request: HTTPRequest) -> String {
        "\(request.method) \(request.path ?? "")"
    }
}
