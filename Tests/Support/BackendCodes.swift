import Backstop
import BadBackend

/// BadBackend's general codes, by the short name the tests have always used. BadBackend nests
/// them so an app's own `GeneralCode` never clashes with them.
public typealias GeneralCode = BadBackend.GeneralCode
/// BadBackend's study-group codes, by the short name the tests have always used.
public typealias StudyGroupCode = BadBackend.StudyGroupCode

// The app's codes are BadBackend's own: an app declares the same values with the roles it acts on.
extension GeneralCode: ServerCode {
    public var role: ServerCodeRole? {
        switch self {
        case .tokenExpired: .tokenExpired
        case .signInRequired: .signInRequired
        case .maintenance: .maintenance
        case .rateLimited: .rateLimited
        }
    }
}

extension StudyGroupCode: ServerCode {}

/// A failure of a call to a study-group endpoint, with BadBackend's codes.
public typealias StudyGroupError = APIError<GeneralCode, StudyGroupCode>

extension EnvelopeContract {
    /// BadBackend's style A.
    public static let a = EnvelopeContract(code: "statusCode", message: ["message"], payload: "result.data", success: .codes([200]))
    /// BadBackend's style B.
    public static let b = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))
    /// BadBackend's style C, whose failures move the message.
    public static let c = EnvelopeContract(
        code: "statusCode", message: ["message", "result.message"], payload: "result.data",
        success: .codes([200]))

    /// The contract for one of BadBackend's styles.
    public static func style(_ style: EnvelopeStyle) -> EnvelopeContract {
        switch style {
        case .a: .a
        case .b: .b
        case .c: .c
        }
    }
}
