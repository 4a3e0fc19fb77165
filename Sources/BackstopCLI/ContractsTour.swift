import Backstop
import Foundation

/// The second part of the tour: envelopes unwrapped by a declared contract, and every
/// failure as one typed error with a message for users and a line for engineers.
enum ContractsTour {
    enum AppCode: Int, ServerCode {
        case tokenExpired = 11001
        var role: ServerCodeRole? { .tokenExpired }
    }

    enum StudyGroupCode: Int, ServerCode {
        case wrongTeamCode = 11210005
    }

    typealias StudyGroupError = APIError<AppCode, StudyGroupCode>

    struct Room: Decodable {
        let id: Int
        let name: String
    }

    /// Backend B: `{"code":200,"msg":"OK","data":{…}}`.
    static let backendB = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))
    /// Backend C: like A, but a failure moves the message to `result.message`.
    static let backendC = EnvelopeContract(
        code: "statusCode", message: ["message", "result.message"], payload: "result.data", success: .codes([200]))

    /// The app's own wording for its codes; Korean is left out to show the fallback.
    static let catalog = MessageCatalog.builtIn.merging(MessageCatalog([
        "en": ["server.11210005": "That team code doesn't exist."],
        "zh-Hans": ["server.11210005": "该团队代码不存在。"],
    ]))

    static func show(on terminal: Terminal) {
        terminal.line()
        terminal.line("Contracts and errors: one declaration per backend, one error type per feature.", .title)
        unwrap("Backend B, success, with a code and an id sent as strings",
               #"{"code":"200","msg":"OK","data":{"id":"7","name":"Room 12"}}"#, backendB, on: terminal)
        unwrap("Backend B declines with this module's own code",
               #"{"code":11210005,"msg":"Wrong team code","data":null}"#, backendB, on: terminal)
        unwrap("Backend C declines with a code nobody declared; its message moved",
               #"{"statusCode":403,"result":{"message":"您的帳號權限不足"}}"#, backendC, on: terminal)
        unwrap("A proxy answers with an HTML page",
               "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>", backendB, on: terminal)
    }

    static func unwrap(_ title: String, _ body: String, _ contract: EnvelopeContract, on terminal: Terminal) {
        terminal.line()
        terminal.line("▸ \(title)", .heading)
        terminal.line("  \(body)", .dim)
        do {
            let report = try contract.unwrap(
                Room.self, from: Data(body.utf8), response: HTTPResponse(status: .ok),
                decoder: ResilientJSONDecoder(), throwing: StudyGroupError.self)
            terminal.line("  payload: " + terminal.paint("Room(id: \(report.value.id), name: \(report.value.name))", .good))
            for repair in report.repairs {
                terminal.line("    repair " + terminal.paint(repair.description, .note))
            }
        } catch {
            terminal.line("  engineers: " + terminal.paint(error.description, .bad))
            terminal.line("  analytics: \(error.groupingIdentifier)")
            if case .server(.module(.wrongTeamCode, _)) = error {
                terminal.line("  the feature's switch matched " + terminal.paint(".server(.module(.wrongTeamCode, _))", .good))
            }
            for language in ["en", "zh-Hans", "ko"] {
                terminal.line("  user (\(language)): " + error.userMessage(locale: Locale(identifier: language), catalog: catalog))
            }
            if let alert = RecoveryPolicy(catalog: catalog).alert(for: error, locale: Locale(identifier: "en")) {
                terminal.line("  alert:")
                for line in alert.terminalText.split(separator: "\n") { terminal.line("    \(line)") }
            }
        }
    }
}
