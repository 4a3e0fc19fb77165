import HTTPTypes

/// What the stages of one call learn and observation reports: its attempts, why each retry
/// was made, and the secrets a log line must not show.
///
/// Made per call by whoever runs the pipeline and handed to each stage; a timeout's child
/// task writes to it while the caller may read it, hence the lock.
final class CallRecord: Sendable {
    private struct State: Sendable {
        var attempts = 0
        var retries: [String] = []
        var secrets: [String] = []
    }

    private let state = LockedValue(State())

    /// The call's span, when the pipeline traces; hears each attempt and retry.
    let span: (any CallSpan)?

    init(span: (any CallSpan)? = nil) {
        self.span = span
    }

    /// How many times the request reached the app's middlewares and the transport.
    var attempts: Int { state.withLock { $0.attempts } }
    /// Why each retry was made (`status.503`, `transport.timedOut`, `server.rateLimited`).
    var retries: [String] { state.withLock { $0.retries } }
    /// Values that logs must never show, such as the credential authentication applied.
    var secrets: [String] { state.withLock { $0.secrets } }

    func recordAttempt() {
        let number = state.withLock { state in
            state.attempts += 1
            return state.attempts
        }
        span?.recordAttempt(number)
    }

    func recordRetry(reason: String) {
        state.withLock { $0.retries.append(reason) }
        span?.recordRetry(reason: reason)
    }

    /// The values of the header fields and query items of `applied` that `original` did not
    /// have: what authentication put on the request.
    static func applied(from original: HTTPRequest, to applied: HTTPRequest) -> [String] {
        var values: [String] = []
        for field in applied.headerFields where !original.headerFields.contains(field) {
            values.append(field.value)
        }
        if applied.path != original.path, let path = applied.path, let question = path.firstIndex(of: "?") {
            let before = Set((original.path ?? "").split(separator: "?", maxSplits: 1).dropFirst().first?.split(separator: "&") ?? [])
            for item in path[path.index(after: question)...].split(separator: "&") where !before.contains(item) {
                if let equals = item.firstIndex(of: "=") { values.append(String(item[item.index(after: equals)...])) }
            }
        }
        return values
    }

    func addSecrets(_ values: [String]) {
        let values = values.filter { !$0.isEmpty }
        guard !values.isEmpty else { return }
        state.withLock { $0.secrets.append(contentsOf: values) }
    }
}
