/// Reads an `APIError` of any code types: what a failed refresh means for the session, and
/// the same failure for the call that waited for it.
protocol RefreshFailureReading: Error {
    /// Whether a refresh that failed with this error ends the session; see
    /// ``Authenticator/endsSession(after:)``.
    var endsSessionWhenRefreshFails: Bool { get }
    /// This failure, with its codes classified for `General` and `Module`.
    func converted<General, Module>(to type: APIError<General, Module>.Type) -> APIError<General, Module>
}

extension APIError: RefreshFailureReading {
    var endsSessionWhenRefreshFails: Bool {
        switch self {
        case .transport, .decoding: false
        case .http(let failure): !(failure.status.code == 408 || failure.status.code == 429 || failure.status.code >= 500)
        case .server(let error): !(error.role == .maintenance || error.role == .rateLimited)
        case .client: true
        }
    }

    func converted<G, M>(to type: APIError<G, M>.Type) -> APIError<G, M> {
        switch self {
        case .transport(let failure): .transport(failure)
        case .http(let failure): .http(failure)
        case .decoding(let failure): .decoding(failure)
        case .server(let error): .server(ServerError(code: error.code, message: error.message))
        case .client(let failure): .client(failure)
        }
    }
}
