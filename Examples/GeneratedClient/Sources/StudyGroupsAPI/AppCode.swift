import Backstop

/// The app-wide codes backend B may answer any call with, and the roles Backstop acts on.
public enum AppCode: Int, ServerCode {
    case tokenExpired = 11001
    case signInRequired = 10401
    case maintenance = 10503
    case rateLimited = 10429

    public var role: ServerCodeRole? {
        switch self {
        case .tokenExpired: .tokenExpired
        case .signInRequired: .signInRequired
        case .maintenance: .maintenance
        case .rateLimited: .rateLimited
        }
    }
}

/// A failure of a call whose feature's own codes are `Module`.
public typealias AppError<Module: ServerCode> = APIError<AppCode, Module>
