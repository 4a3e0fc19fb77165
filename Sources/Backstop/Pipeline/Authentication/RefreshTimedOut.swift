/// The underlying error of the `.transport` `timedOut` failure that calls get when the refresh
/// they waited for outlived ``AuthSession/refreshTimeout``.
struct RefreshTimedOut: Error, CustomStringConvertible {
    var description: String { "the credential's refresh took longer than the session's refresh timeout" }
}
