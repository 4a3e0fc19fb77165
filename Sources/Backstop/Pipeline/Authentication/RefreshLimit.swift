/// How many token refreshes a session may make in a time window before it gives up.
///
/// A backend that rejects every fresh credential would otherwise be asked for a new one
/// after each request, forever. Past the limit the refresh fails with
/// ``ClientFailure/Reason/tooManyRefreshes`` and the session signs out.
public struct RefreshLimit: Sendable, Hashable {
    /// The most refreshes allowed within ``window``.
    public var maximumRefreshes: Int
    /// How far back refreshes count, on the session's clock.
    public var window: Duration

    /// A limit of `maximumRefreshes` refreshes within any `window` of the session's clock.
    ///
    /// - Parameters:
    ///   - maximumRefreshes: The most refreshes allowed within `window`.
    ///   - window: How far back refreshes count.
    public init(maximumRefreshes: Int, window: Duration) {
        self.maximumRefreshes = maximumRefreshes
        self.window = window
    }

    /// Five refreshes in thirty seconds, as Alamofire's `AuthenticationInterceptor` allows.
    public static let `default` = RefreshLimit(maximumRefreshes: 5, window: .seconds(30))
}
