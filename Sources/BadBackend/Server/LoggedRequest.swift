import Foundation

/// One request as BadBackend saw it, recorded when it arrives (before any slow answer waits).
public struct LoggedRequest: Sendable, Hashable, CustomStringConvertible {
    /// `GET`, `POST`…
    public var method: String
    /// The path with its query, as sent: `/scenarios/http-503/b/products?failures=2`.
    public var path: String
    /// The bearer token sent in `Authorization`, or the refresh token a refresh sent.
    public var credential: String?
    /// 1 for the first request with this method and path (query left out), 2 for the next…
    public var attempt: Int
    /// The scenario this request got, by path or at random; `nil` for a clean answer.
    public var scenario: Scenario?
    /// The name of the scenario this request got: ``scenario``'s, or for a served document one
    /// only it has (`odd-dates`, `trickle`); `nil` for a clean answer.
    public var scenarioName: String?
    /// The body as received, so a test can check what each attempt sent; `nil` when the
    /// request had none. The log keeps its first ``RequestLog/maximumBodyBytes`` only.
    public var body: Data?
    /// How many bytes the body had as received: more than `body` holds when the log cut it.
    public var bodyByteCount: Int

    /// An entry as the log records it; for comparing with ``RequestLog/entries`` in tests.
    ///
    /// `bodyByteCount` is the size of `body` unless given; `scenarioName` is `scenario`'s name unless given.
    public init(
        method: String, path: String, credential: String?, attempt: Int, scenario: Scenario?, scenarioName: String? = nil,
        body: Data? = nil, bodyByteCount: Int? = nil
    ) {
        self.method = method
        self.path = path
        self.credential = credential
        self.attempt = attempt
        self.scenario = scenario
        self.scenarioName = scenarioName ?? scenario?.name
        self.body = body
        self.bodyByteCount = bodyByteCount ?? body?.count ?? 0
    }

    /// `GET /b/products attempt 2 credential access-1 scenario http-503`
    public var description: String {
        var text = "\(method) \(path) attempt \(attempt)"
        if let credential { text += " credential \(credential)" }
        if let scenarioName { text += " scenario \(scenarioName)" }
        return text
    }
}
