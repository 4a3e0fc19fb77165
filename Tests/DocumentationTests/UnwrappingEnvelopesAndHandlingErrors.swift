import Backstop
import BadBackend
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The code of the DocC article "Unwrapping Envelopes and Handling Errors", as it is written there.

let contract = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))

let wrapped = EnvelopeContract(
    code: "statusCode", message: ["message", "result.message"],
    payload: "result.data", success: .codes([200]))

let flagged = EnvelopeContract(
    code: "errorCode", message: ["errorMessage"], payload: "data",
    success: .flag("success"))

let plain = EnvelopeContract.noEnvelope

enum StudyGroupCode: Int, ServerCode {
    case wrongTeamCode = 11210005
    case classNotFound = 11210006
}

struct StudyGroup: Decodable {
    var id: Int
    var name: String
}

func joinGroup(_ request: URLRequest) async throws(AppError<StudyGroupCode>) -> StudyGroup {
    let body: Data
    let response: HTTPResponse
    do {
        let (data, urlResponse) = try await URLSession.shared.data(for: request)
        guard let http = urlResponse as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        (body, response) = (data, HTTPResponse(status: .init(code: http.statusCode)))
    } catch {
        throw .transport(TransportFailure(error))
    }
    return try contract.unwrap(
        StudyGroup.self, from: body, response: response,
        throwing: AppError<StudyGroupCode>.self
    ).value
}

/// The article's handler; it answers what it did, for the test.
@MainActor
func joinAndHandle(_ request: URLRequest) async -> String {
    do {
        let group = try await joinGroup(request)
        show(group)
        return "show \(group.name)"
    } catch {
        switch error {
        case .server(.module(.wrongTeamCode, _)):
            teamCodeField.showHint()
            return "hint"
        case .server(.module(.classNotFound, _)):
            showClassNotFound()
            return "class not found"
        case .server(.general(.tokenExpired, _)), .server(.general(.signInRequired, _)):
            showSignIn()
            return "sign in"
        case .server(.general), .server(.unknown), .transport, .http, .decoding, .client:
            showAlert(error.userMessage())
            return "alert: " + error.userMessage(locale: Locale(identifier: "en"))
        }
    }
}

func installMessages() throws {
    if let folder = Bundle.main.url(forResource: "ErrorMessages", withExtension: nil) {
        MessageCatalog.standard = .builtIn.merging(try MessageCatalog(contentsOf: folder))
    }
}

@Suite("Unwrapping Envelopes and Handling Errors, as written")
struct UnwrappingEnvelopesAndHandlingErrorsTests {
    @Test("joinGroup and its switch against BadBackend's backend B", .timeLimit(.minutes(1)))
    func joinGroupAgainstBadBackend() async throws {
        let backend = BadBackend()
        try await backend.withRunning { url in
            func request(_ path: String) -> URLRequest { URLRequest(url: url.appendingPathComponent(path)) }
            #expect(await joinAndHandle(request("b/study-groups/7")).hasPrefix("show "))
            #expect(await joinAndHandle(request("scenarios/wrong-team-code/b/study-groups/7")) == "hint")
            #expect(await joinAndHandle(request("scenarios/class-not-found/b/study-groups/7")) == "class not found")
            #expect(await joinAndHandle(request("scenarios/token-expired/b/study-groups/7")) == "sign in")
            #expect(await joinAndHandle(request("scenarios/html-error-page/b/study-groups/7")).hasPrefix("alert: "))
        }
    }
}
