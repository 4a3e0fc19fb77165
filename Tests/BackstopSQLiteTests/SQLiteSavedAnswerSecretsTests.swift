import Backstop
import BackstopSQLite
import BackstopTesting
import Foundation
import HTTPTypes
import Testing

/// The saved-answer stage on an SQLite store, through `APIClient`: what reaches the file. Calls
/// carry a session's bearer token, a cookie, an app-named secret header field and a credential in
/// the query, and their responses set a cookie; the bytes of the database and its journal hold
/// none of them, though they hold the answer.
@Suite struct SQLiteSavedAnswerSecretsTests {
    /// A bearer token `user:token`, whose user names the saved answers.
    struct BearerAuthenticator: Authenticator {
        func apply(_ credential: String, to request: inout HTTPRequest) {
            request.headerFields[.authorization] = "Bearer \(credential)"
        }
        func refresh(_ credential: String) async throws -> String { credential }
        func savedAnswerUser(of credential: String) -> String? { credential.split(separator: ":").first.map(String.init) }
    }

    struct Group: Decodable, Equatable {
        var id: Int
        var name: String
    }

    static let secrets = [
        "TOKEN-SECRET-1111", "COOKIE-SECRET-2222", "APIKEY-SECRET-3333", "QUERY-SECRET-4444", "SETCOOKIE-SECRET-5555",
    ]

    static let endpoint = Endpoint<Group, NoModuleCodes>(
        .get, "groups", query: [URLQueryItem(name: "access_token", value: "QUERY-SECRET-4444"), URLQueryItem(name: "page", value: "1")],
        headerFields: [.cookie: "session=COOKIE-SECRET-2222", HTTPField.Name("X-Api-Key")!: "APIKEY-SECRET-3333"])

    /// A client saving into `store` for a session signed in as `ana`, on `transport`.
    static func client(_ store: SQLiteAnswerStore, _ transport: StubTransport) -> (
        APIClient<NoModuleCodes>, AuthSession<BearerAuthenticator>
    ) {
        let session = AuthSession(authenticator: BearerAuthenticator(), credential: "ana:TOKEN-SECRET-1111")
        var pipeline = ClientPipeline(logging: nil, metrics: nil, retry: .never)
        pipeline.redaction = Redaction(headerFields: [HTTPField.Name("X-Api-Key")!])
        pipeline.authentication = .session(session)
        pipeline.savedAnswers = SavedAnswers(store: store)
        let client = APIClient<NoModuleCodes>(
            baseURL: URL(string: "https://api.example.com/v1")!, pipeline: pipeline, transport: transport)
        return (client, session)
    }

    @Test func theFileHoldsTheAnswerAndNoSecret() async throws {
        let folder = try StoreFolder()
        let store = folder.store()
        let transport = StubTransport()
        var fields = HTTPFields()
        fields[.setCookie] = "sid=SETCOOKIE-SECRET-5555; HttpOnly"
        fields[.eTag] = "\"etag-7\""
        fields[.contentType] = "application/json"
        transport.stub(
            .get, "groups?access_token=QUERY-SECRET-4444&page=1",
            StubResponse(status: .ok, headerFields: fields, body: Data(#"{"id":7,"name":"Saved Group Seven"}"#.utf8)),
            StubResponse(status: .serviceUnavailable))
        let (client, session) = Self.client(store, transport)

        #expect(try await client.send(Self.endpoint) == Group(id: 7, name: "Saved Group Seven"))
        // The request did carry every secret.
        let sent = try #require(transport.requests.first)
        #expect(sent.headerFields[.authorization] == "Bearer ana:TOKEN-SECRET-1111")
        #expect(sent.headerFields[.cookie] == "session=COOKIE-SECRET-2222")
        #expect(sent.path.contains("QUERY-SECRET-4444"))
        await store.flush()

        let bytes = folder.bytesOnDisk()
        #expect(bytes.range(of: Data("Saved Group Seven".utf8)) != nil)
        #expect(bytes.range(of: Data("etag-7".utf8)) != nil)
        for secret in Self.secrets {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the database file")
        }
        // The 503 is answered from the file's answer.
        let answered = try await client.response(for: Self.endpoint)
        #expect(answered.payload == Group(id: 7, name: "Saved Group Seven"))
        #expect(answered.savedAnswer != nil)

        // Signing out removes the user's answers, and overwrites them in the file and its journal.
        session.signOut()
        await store.flush()
        let after = folder.bytesOnDisk()
        #expect(after.range(of: Data("Saved Group Seven".utf8)) == nil)
        #expect(await store.usage().entries == 0)
    }

    @Test func aNewProcessOfTheSameUserGetsTheAnswerWithoutTheNetwork() async throws {
        let folder = try StoreFolder()
        let online = StubTransport()
        online.stub(.get, "groups?access_token=QUERY-SECRET-4444&page=1", StubResponse(body: Data(#"{"id":7,"name":"Seven"}"#.utf8)))
        do {
            let store = folder.store()
            _ = try await Self.client(store, online).0.send(Self.endpoint)
            await store.flush()
        }
        // As the app launched again, offline: a new store on the same file, a transport that fails.
        let offline = StubTransport()
        offline.stub(.get, "groups?access_token=QUERY-SECRET-4444&page=1", answer: { _ in StubResponse(status: .serviceUnavailable) })
        let response = try await Self.client(folder.store(), offline).0.response(for: Self.endpoint)
        #expect(response.payload == Group(id: 7, name: "Seven"))
        #expect(response.savedAnswer != nil)
    }
}
