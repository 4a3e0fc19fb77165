import HTTPTypes

/// Which redirects a call follows, and with which header fields: one rule for every transport,
/// since Backstop follows redirects itself and transports hand them back.
///
/// ```swift
/// var pipeline = ClientPipeline()
/// pipeline.redirects = RedirectPolicy(maximumRedirects: 3)
/// // An endpoint whose answer lives on a CDN, another origin, that needs no credential:
/// let export = Endpoint<StudyGroup, StudyGroupCode>(.get, "groups/42/export", redirects: .followingOtherOrigins)
/// ```
///
/// The rules, for a response whose status is 301, 302, 303, 307 or 308 and that has a `Location`:
/// - **Same origin** (scheme, host and port equal to the request's): followed, with the call's
///   header fields, its credential included. 303 becomes a `GET` without a body (a `HEAD` stays
///   one), and so do a 301 or 302 answering a `POST`, as browsers do; 307 and 308 send the same
///   method and body again.
/// - **https to http**: never followed, whatever the policy.
/// - **Another origin**: by default not followed. The call answers the redirect itself, which
///   a contract that accepts only 2xx makes an `.http` failure whose ``HTTPFailure/status`` is
///   the 3xx and whose ``HTTPFailure/headerFields`` keep its `Location`. With
///   ``CrossOrigin/followWithoutCredentials`` it is followed carrying only the header fields in
///   ``crossOriginHeaderFields``: never `Authorization`, `Proxy-Authorization`, `Cookie`, the
///   session's credential or any header the app set, whatever its name.
/// - More than ``maximumRedirects`` in a row: the last redirect is the answer.
///
/// The app's middlewares see each request that is followed, with the base URL of its origin.
public struct RedirectPolicy: Sendable, Hashable {
    /// What a redirect to another origin does.
    public enum CrossOrigin: Sendable, Hashable {
        /// The redirect is the call's answer, with its `Location`.
        case refuse
        /// Followed, carrying only ``RedirectPolicy/crossOriginHeaderFields``.
        case followWithoutCredentials
    }

    /// The most redirects one attempt follows; `0` follows none.
    public var maximumRedirects: Int
    /// What a redirect to another origin does.
    public var crossOrigin: CrossOrigin

    /// A policy.
    ///
    /// - Parameters:
    ///   - maximumRedirects: The most redirects one attempt follows.
    ///   - crossOrigin: What a redirect to another origin does.
    public init(maximumRedirects: Int = 5, crossOrigin: CrossOrigin = .refuse) {
        self.maximumRedirects = max(0, maximumRedirects)
        self.crossOrigin = crossOrigin
    }

    /// Up to 5 redirects within the request's origin; another origin's is the answer.
    public static var `default`: RedirectPolicy { RedirectPolicy() }
    /// Follows no redirect: every 3xx is the answer.
    public static var never: RedirectPolicy { RedirectPolicy(maximumRedirects: 0) }
    /// Up to 5 redirects, to other origins too, without credentials; still never https to http.
    public static var followingOtherOrigins: RedirectPolicy { RedirectPolicy(crossOrigin: .followWithoutCredentials) }

    /// The only header fields a request followed to another origin carries: `Accept`,
    /// `Accept-Language`, `Content-Type` and `User-Agent`. An allow list, so that no credential
    /// leaves under a name nobody thought of (`X-Api-Key`, a session's own header).
    public static var crossOriginHeaderFields: [HTTPField.Name] { [.accept, .acceptLanguage, .contentType, .userAgent] }
}
