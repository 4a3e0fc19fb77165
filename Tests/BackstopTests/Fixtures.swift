import Backstop

/// The app-wide codes of seed 000, with the roles Backstop acts on.
enum AppCode: Int, ServerCode {
    case tokenExpired = 11001
    case verifyCodeExpired = 11002
    case signInRequired = 11004
    case maintenance = 10503
    case rateLimited = 10429

    var role: ServerCodeRole? {
        switch self {
        case .tokenExpired: .tokenExpired
        case .signInRequired: .signInRequired
        case .maintenance: .maintenance
        case .rateLimited: .rateLimited
        case .verifyCodeExpired: nil
        }
    }
}

/// A feature module's own codes.
enum StudyGroupCode: Int, ServerCode {
    case wrongTeamCode = 11210005
    case classNotFound = 11210006
    /// Also a general code: general wins.
    case clashesWithGeneral = 11001
}

/// Another module, whose codes a study-group handler must never see.
enum CheckInCode: Int, ServerCode {
    case alreadyCheckedIn = 11140003
}

enum StringGeneralCode: String, ServerCode {
    case sessionExpired = "E_SESSION"
    case numeric = "40001"
}

enum StringModuleCode: String, ServerCode {
    case outOfStock = "E_STOCK"
}

typealias AppError<Module: ServerCode> = APIError<AppCode, Module>
typealias StudyGroupError = AppError<StudyGroupCode>

struct Product: Decodable, Equatable, Sendable {
    var id: Int
    var name: String
}
