import Backstop
import Foundation
import HTTPTypes

// The code of the DocC article "Showing Saved Data During an Outage", and of the saved-answer
// symbols' comments, as it is written there.

/// What the study-group search sends.
struct GroupSearch: Encodable, Sendable {
    var text: String
}

/// The app's banner above a list, for a notice that does not interrupt.
func showBanner(_ text: String) {}

func makeAClientThatShowsSavedData() -> APIClient<AppCode> {
    var pipeline = ClientPipeline()
    pipeline.savedAnswers = SavedAnswers(maximumAge: .seconds(24 * 3600))
    pipeline.circuitBreaker = CircuitBreaker()
    let client = APIClient<AppCode>(baseURL: baseURL, contract: backendB, pipeline: pipeline)
    return client
}

func loadGroups(_ client: APIClient<AppCode>) async throws -> [StudyGroup] {
    let response = try await client.response(for: Endpoint<[StudyGroup], StudyGroupCode>(.get, "groups"))
    if let saved = response.savedAnswer {
        showBanner(RecoveryPolicy.standard.notice(for: saved).message)
    }
    return response.payload
}

func showSavedThenFresh(_ client: APIClient<AppCode>) async throws {
    let groups = Endpoint<[StudyGroup], StudyGroupCode>(.get, "groups")
    for try await response in client.savedThenFresh(groups) {
        show(response.payload)
        if let saved = response.savedAnswer { showBanner(RecoveryPolicy.standard.notice(for: saved).message) }
    }
}

func chooseWhatIsSaved() -> [Endpoint<[StudyGroup], StudyGroupCode>] {
    let search = Endpoint<[StudyGroup], StudyGroupCode>(
        .post, "groups/search", body: GroupSearch(text: "swift"), isIdempotent: true,
        savedAnswers: .saved(maximumAge: .seconds(600)))
    let balance = Endpoint<StudyGroup, StudyGroupCode>(.get, "groups/42/balance", savedAnswers: .never)
    _ = balance
    return [search]
}

/// Tokens that say whose they are.
struct UserTokens: Codable, Sendable {
    var userID: String
    var accessToken: String
}

struct UserTokensAuthenticator: Authenticator {
    func apply(_ credential: UserTokens, to request: inout HTTPRequest) {
        request.headerFields[.authorization] = "Bearer \(credential.accessToken)"
    }

    func refresh(_ credential: UserTokens) async throws -> UserTokens { credential }

    func savedAnswerUser(of credential: UserTokens) -> String? {
        credential.userID
    }
}

func forgetWhatWasSaved(_ session: AuthSession<UserTokensAuthenticator>, store: InMemorySavedAnswerStore) {
    session.signOut()  // removes the user's saved answers from every store
    store.removeAll()  // or everything, when the user deletes their account
}
