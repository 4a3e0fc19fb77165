/// Every way a request can fail, as one error that callers `switch` over exhaustively.
///
/// `General` is the app's codes that any endpoint may return; `Module` is the codes of the
/// feature making the request. A feature's `switch` therefore lists its own codes and the
/// general ones, and nothing from other features. Apps usually fix `General` once:
///
/// ```swift
/// typealias AppError<Module: ServerCode> = APIError<AppCode, Module>
///
/// func handle(_ error: AppError<StudyGroupCode>) {
///     switch error {
///     case .server(.module(.wrongTeamCode, _)): showTeamCodeHint()
///     case .server(.general(.tokenExpired, _)): signIn()
///     case .server(.module(_, let message)), .server(.general(_, let message)), .server(.unknown(_, let message)):
///         show(message)
///     case .transport, .http, .decoding, .client: showAlert(error)
///     }
/// }
/// ```
///
/// Values compare equal when they describe the same failure (underlying errors compare by
/// domain and code, see ``UnderlyingError``), so reducer tests can assert on them.
public enum APIError<General: ServerCode, Module: ServerCode>: Error, Sendable, Hashable {
    /// No HTTP response: offline, timed out, cancelled, DNS, TLS…
    case transport(TransportFailure)
    /// A response whose status the contract does not accept.
    case http(HTTPFailure)
    /// A body that broke its contract, or a payload that could not be decoded.
    case decoding(DecodingFailure)
    /// The server declined the request with a business code.
    case server(ServerError<General, Module>)
    /// An error raised on the device, before sending or after receiving.
    case client(ClientFailure)

    /// The layer of the failure, for code that treats each layer alike.
    public enum Layer: String, Sendable, Hashable, CaseIterable {
        /// ``APIError/transport(_:)``: no usable response arrived.
        case transport
        /// ``APIError/http(_:)``: a status the contract does not accept.
        case http
        /// ``APIError/decoding(_:)``: the body did not fit the contract or the model.
        case decoding
        /// ``APIError/server(_:)``: the envelope carried a business failure.
        case server
        /// ``APIError/client(_:)``: raised on the device.
        case client
    }

    /// Which layer failed.
    public var layer: Layer {
        switch self {
        case .transport: .transport
        case .http: .http
        case .decoding: .decoding
        case .server: .server
        case .client: .client
        }
    }

    /// The business code and message the backend sent, classified for this feature, whatever
    /// status carried them: a `.server` failure's, or those of an `.http` failure's envelope,
    /// such as `{"code": 11210006, "msg": "Class not found"}` sent with a 404.
    ///
    /// A feature that switches over its module's codes reads them here, so a backend that sends
    /// business codes with 4xx statuses reaches the same `case`s:
    ///
    /// ```swift
    /// if case .module(.classNotFound, _)? = error.serverError { showGone() }
    /// ```
    ///
    /// `nil` for the transport, decoding and client layers, and for an HTTP error without a code.
    public var serverError: ServerError<General, Module>? {
        switch self {
        case .server(let error): error
        case .http(let failure): failure.code.map { ServerError(code: $0, message: failure.message) }
        case .transport, .decoding, .client: nil
        }
    }

    /// The role the business code declares, whether it came as a business failure or
    /// with an HTTP error; `nil` when there is no code or it plays no role.
    public var role: ServerCodeRole? {
        switch self {
        case .server(let error): error.role
        case .http(let failure): failure.code.flatMap { ServerError<General, Module>(code: $0, message: nil).role }
        case .transport, .decoding, .client: nil
        }
    }

    /// The server's own message, from a business failure or an HTTP error's envelope.
    public var serverMessage: String? {
        switch self {
        case .server(let error): error.message
        case .http(let failure): failure.message
        case .transport, .decoding, .client: nil
        }
    }

    /// The same failure, with business codes classified against another module's codes.
    ///
    /// A shared networking layer that does not know the feature throws
    /// `APIError<AppCode, NoModuleCodes>`; the feature then reclassifies it for its own
    /// codes. General codes stay general.
    public func reclassified<Other: ServerCode>(for module: Other.Type) -> APIError<General, Other> {
        converted(to: APIError<General, Other>.self)
    }
}
