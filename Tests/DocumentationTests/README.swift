import Backstop
import BackstopJSON
import Foundation
import Testing

// The code of README.md, as it is written there.

func decodeAUser(from data: Data) throws -> User {
    let decoder = ResilientJSONDecoder()
    let user = try decoder.decode(User.self, from: data)
    let report = try decoder.decodeWithReport(User.self, from: data)
    print(report.repairs)
    #expect(report.value.id == user.id)
    return user
}

func makeTheREADMEsClient() -> APIClient<AppCode> {
    let session = AuthSession(authenticator: BackendBAuthenticator(refresher: refresher), credential: savedTokens)
    let client = APIClient<AppCode>(
        baseURL: baseURL, contract: backendB,
        pipeline: ClientPipeline(timeout: .seconds(30), authentication: .session(session)))
    return client
}

@Test("README: a lenient decoder repairs \"id\": \"42\" and reports it")
func readmeDecoding() throws {
    let user = try decodeAUser(from: Data(#"{"id": "42", "name": "Ada"}"#.utf8))
    #expect(user.id == 42)
    #expect(user.name == "Ada")
}
