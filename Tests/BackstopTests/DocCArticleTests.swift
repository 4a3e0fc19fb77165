import Backstop
import BackstopTestSupport
import Foundation
import Testing

/// The contracts, codes and flow of the DocC article "Unwrapping Envelopes and Handling Errors",
/// with a stand-in HTTP client so the flow runs without a server and its messages are checked
/// exactly; the article's code exactly as written compiles and runs in DocumentationTests.
enum Article {
    static let contract = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))
    static let wrapped = EnvelopeContract(
        code: "statusCode", message: ["message", "result.message"],
        payload: "result.data", success: .codes([200]))
    static let flagged = EnvelopeContract(
        code: "errorCode", message: ["errorMessage"], payload: "data",
        success: .flag("success"))
    static let plain = EnvelopeContract.noEnvelope

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

    typealias AppError<Module: ServerCode> = APIError<AppCode, Module>

    enum StudyGroupCode: Int, ServerCode {
        case wrongTeamCode = 11210005
        case classNotFound = 11210006
    }

    struct StudyGroup: Decodable {
        var id: Int
        var name: String
    }

    /// Stands in for the app's HTTP client.
    struct Client: Sendable {
        let respond: @Sendable (String) throws -> (Data, HTTPResponse)

        func data(for request: String) async throws -> (Data, HTTPResponse) { try respond(request) }
    }

    struct Backend: Sendable {
        let client: Client

        func joinGroup(teamCode: String) async throws(AppError<StudyGroupCode>) -> StudyGroup {
            let body: Data
            let response: HTTPResponse
            do {
                (body, response) = try await client.data(for: "join \(teamCode)")
            } catch {
                throw .transport(TransportFailure(error))
            }
            return try contract.unwrap(
                StudyGroup.self, from: body, response: response,
                throwing: AppError<StudyGroupCode>.self
            ).value
        }
    }

    /// The article's handler, returning what it would do.
    static func join(_ backend: Backend, input: String) async -> String {
        do {
            let group = try await backend.joinGroup(teamCode: input)
            return "show \(group.name)"
        } catch {
            switch error {
            case .server(.module(.wrongTeamCode, _)):
                return "hint"
            case .server(.module(.classNotFound, _)):
                return "class not found"
            case .server(.general(.tokenExpired, _)):
                return "sign in again"
            case .server(.general(.maintenance, _)), .server(.unknown), .transport, .http, .decoding, .client:
                return "alert: " + error.userMessage(locale: Locale(identifier: "en"))
            }
        }
    }
}

@Suite("The DocC article's code", .englishMessages)
struct DocCArticleTests {
    func backend(_ body: String, status: HTTPResponse.Status = .ok) -> Article.Backend {
        Article.Backend(client: Article.Client { _ in (Data(body.utf8), HTTPResponse(status: status)) })
    }

    @Test("from an envelope of shape B to a module's switch")
    func walkthrough() async {
        #expect(await Article.join(backend(#"{"code":200,"msg":"OK","data":{"id":7,"name":"Room 12"}}"#), input: "x") == "show Room 12")
        #expect(await Article.join(backend(#"{"code":11210005,"msg":"Wrong team code","data":null}"#), input: "x") == "hint")
        #expect(await Article.join(backend(#"{"code":"11001","msg":"Expired"}"#), input: "x") == "sign in again")
        #expect(await Article.join(backend(#"{"code":10503,"msg":"Back at 3am"}"#), input: "x") == "alert: Back at 3am")
        #expect(
            await Article.join(backend("<html>oops</html>"), input: "x")
                == "alert: The server sent a response the app couldn't read. Please try again later.")
        let offline = Article.Backend(client: Article.Client { _ in throw URLError(.notConnectedToInternet) })
        #expect(await Article.join(offline, input: "x") == "alert: You're offline. Check your internet connection and try again.")
    }

    @Test("the other contracts of the article")
    func contracts() throws {
        typealias E = Article.AppError<NoModuleCodes>
        let ok = HTTPResponse(status: .ok)
        let c = #"{"statusCode":403,"result":{"message":"Denied"}}"#
        #expect(
            Result { () throws(E) in try Article.wrapped.unwrap(NoPayload.self, from: Data(c.utf8), response: ok, throwing: E.self) }
                .failure == .server(.unknown(403, message: "Denied")))
        let flag = #"{"success":false,"errorCode":"E_STOCK","errorMessage":"Sold out"}"#
        #expect(
            Result { () throws(E) in try Article.flagged.unwrap(NoPayload.self, from: Data(flag.utf8), response: ok, throwing: E.self) }
                .failure == .server(.unknown("E_STOCK", message: "Sold out")))
        let ids = try Article.plain.unwrap([Int].self, from: Data("[1,2]".utf8), response: ok, throwing: E.self).value
        #expect(ids == [1, 2])
    }
}
