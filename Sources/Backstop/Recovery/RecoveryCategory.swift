/// What the user can do about a failure, in the few kinds an alert distinguishes.
///
/// Backends return dozens of codes; every ``APIError`` maps to one of these
/// (``APIError/recoveryCategory``), and each category has a title and
/// ``defaultActions``. Apps change either per category or per code with
/// ``RecoveryOverrides``, never with a `switch` in each feature.
public enum RecoveryCategory: String, Sendable, Hashable, CaseIterable {
    /// No usable network: offline, the host name could not be resolved, or the connection dropped.
    case offline
    /// The request or a gateway took too long.
    case timedOut
    /// The user must sign in: a 401, a `signInRequired` or `tokenExpired` code that reached
    /// the user (the session could not refresh the token).
    ///
    /// A failed token refresh belongs here too: `.client` with
    /// ``ClientFailure/Reason/tokenRefreshFailed``, ``ClientFailure/Reason/tooManyRefreshes``
    /// or ``ClientFailure/Reason/signedOut``. A new ``ServerCodeRole`` or `APIError` case does
    /// not compile until it is given a category.
    case unauthorized
    /// Signed in, but not allowed: a 403 or 451.
    case forbidden
    /// What was asked for does not exist: a 404 or 410.
    case notFound
    /// The server declined what was sent; its message says why. Other 4xx statuses
    /// (400, 409, 422…) and business codes without a role.
    case rejectedInput
    /// Too many requests: a 429 or a `rateLimited` code. ``RecoveryAlert/retryAfter`` says
    /// when to try again when the server said so.
    case rateLimited
    /// The service is down or under maintenance: a 503, a `maintenance` code, or a refused connection.
    case unavailable
    /// The server failed: other 5xx statuses.
    case serverFailure
    /// The response could not be read: any decoding failure.
    case unreadableResponse
    /// The caller cancelled the request. Never shown to the user.
    case cancelled
    /// Anything else: TLS failures, unclassified transport errors, statuses no contract
    /// should reject, and client failures Backstop does not know.
    case unknown

    /// The actions an alert of this category offers unless an override says otherwise;
    /// the first is the one the user most likely wants.
    ///
    /// Retry is offered where trying again right away may succeed; sign-in where only
    /// signing in helps; otherwise the user can only acknowledge.
    public var defaultActions: [RecoveryAction] {
        switch self {
        case .offline, .timedOut, .serverFailure: [.retry, .cancel]
        case .unauthorized: [.signIn, .cancel]
        case .forbidden, .notFound, .rejectedInput, .rateLimited, .unavailable, .unreadableResponse, .unknown:
            [.dismiss]
        case .cancelled: []
        }
    }

    /// The catalog key of the alert title: `alert.title.<category>`.
    var titleKey: String { "alert.title.\(rawValue)" }

    /// The catalog key of the message that goes with the title when nothing more specific
    /// has one: `category.<category>`.
    var messageKey: String { "category.\(rawValue)" }

    // The last resort when the resources are missing: plain English, never a key; `nil` where
    // the layer's own says more.
    var fallbackMessage: String? {
        switch self {
        case .offline: "You're offline. Check your internet connection and try again."
        case .timedOut: "The server took too long to respond. Please try again."
        case .unauthorized: "Please sign in to continue."
        case .forbidden: "You don't have permission to do that."
        case .notFound: "What you're looking for couldn't be found."
        case .rejectedInput: "The request couldn't be completed."
        case .rateLimited: "Too many requests. Please wait a moment and try again."
        case .unavailable: "The service is temporarily unavailable. Please try again later."
        case .serverFailure: "The server is having trouble. Please try again later."
        case .unreadableResponse: "The server sent a response the app couldn't read. Please try again later."
        case .cancelled: "The request was cancelled."
        case .unknown: nil
        }
    }

    // The last resort when the resources are missing: plain English, never a key.
    var fallbackTitle: String {
        switch self {
        case .offline: "You're Offline"
        case .timedOut: "Request Timed Out"
        case .unauthorized: "Sign In Required"
        case .forbidden: "Access Denied"
        case .notFound: "Not Found"
        case .rejectedInput: "Couldn't Complete Request"
        case .rateLimited: "Too Many Requests"
        case .unavailable: "Service Unavailable"
        case .serverFailure: "Server Error"
        case .unreadableResponse: "Unexpected Response"
        case .cancelled: "Cancelled"
        case .unknown: "Something Went Wrong"
        }
    }
}
