import Backstop
import Foundation

// A backend-B app's declarations, as the README and the DocC articles tell an app to write them.

enum AppCode: Int, ServerCode {
    case tokenExpired = 11001
    case maintenance = 10503

    var role: ServerCodeRole? {
        switch self {
        case .tokenExpired: .tokenExpired
        case .maintenance: .maintenance
        }
    }
}

let backendB = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))

struct Account: Decodable, Sendable, Equatable {
    var id: Int
    var name: String
}
