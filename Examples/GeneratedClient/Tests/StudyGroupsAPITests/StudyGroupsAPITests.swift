import Backstop
import BackstopOpenAPI
import BackstopTesting
import Foundation
import OpenAPIRuntime
import StudyGroupsAPI
import Testing

// The generated client's calls, unit-tested on BackstopTesting's stub transport: no server.
@Suite(.timeLimit(.minutes(1))) struct StudyGroupsAPITests {
    // Read once for every test: reading a document compiles all its schemas.
    static let contract = Result { try StudyGroupsAPI.contract() }

    let transport = StubTransport()
    let api: StudyGroupsAPI

    init() throws {
        api = StudyGroupsAPI(serverURL: URL(string: "https://api.example.com")!, contract: try Self.contract.get(), transport: transport)
    }

    static let group = """
        {"id": 7, "name": "Calculus B", "teamCode": "K7Q2", "role": "owner", "memberCount": 3,
        "members": [{"id": 1, "nickname": "Ada"}, {"id": 2, "nickname": "Grace"}, {"id": 3, "nickname": "Alan"}]}
        """

    /// Each repair recorded, as `operation path action ×count`, sorted.
    var driftLines: [String] {
        api.drift.report().entries.map { "\($0.operation) \($0.path) \($0.action) ×\($0.count)" }.sorted()
    }

    @Test func aCleanAnswerNeedsNoRepair() async throws {
        transport.stub(.get, "b/study-groups/7", .json(#"{"code": 200, "msg": "OK", "data": \#(Self.group)}"#))
        let group = try #require(try await api.studyGroup(id: 7))
        #expect(group.id == 7 && group.name == "Calculus B" && group.role == .owner && group.members.map(\.id) == [1, 2, 3])
        #expect(api.drift.report().entries.isEmpty)
    }

    @Test func numbersAsStringsAreRepairedAndCounted() async throws {
        transport.stub(
            .get, "b/study-groups/7",
            .json(
                """
                {"code": 200, "msg": "OK", "data": {"id": "7", "name": "Calculus B", "teamCode": "K7Q2", "role": "owner",
                "memberCount": "3", "members": [{"id": "1", "nickname": "Ada"}, {"id": "2", "nickname": "Grace"}, {"id": "3", "nickname": "Alan"}]}}
                """))
        let group = try #require(try await api.studyGroup(id: 7))
        #expect(group.id == 7 && group.memberCount == 3 && group.members.map(\.id) == [1, 2, 3])
        #expect(
            driftLines == [
                "getStudyGroup $.data.id coerced ×1", "getStudyGroup $.data.memberCount coerced ×1",
                "getStudyGroup $.data.members[*].id coerced ×3",
            ])
    }

    @Test func aRoleTheDocumentDoesNotListFallsBack() async throws {
        let coOwner = Self.group.replacingOccurrences(of: #""role": "owner""#, with: #""role": "co-owner""#)
        transport.stub(.get, "b/study-groups/7", .json(#"{"code": 200, "msg": "OK", "data": \#(coOwner)}"#))
        let group = try #require(try await api.studyGroup(id: 7))
        #expect(group.role == .member)
        #expect(driftLines == ["getStudyGroup $.data.role fellBack ×1"])
    }

    @Test func aBrokenProductIsDroppedNotTheList() async throws {
        let product = { (id: String) in
            #"{"id": \#(id), "name": "Pen", "price": 1.5, "inStock": true, "stock": 4, "category": "audio", "tags": []}"#
        }
        let products = [product("1"), product(#""two?""#), product("3")].joined(separator: ", ")
        transport.stub(.get, "b/products", .json(#"{"code": 200, "msg": "OK", "data": [\#(products)]}"#))
        #expect(try await api.products().map(\.id) == [1, 3])
        #expect(driftLines == ["listProducts $.data[*] dropped ×1"])
    }

    @Test func aBusinessCodeIsBackstopsTypedErrorWithItsAlert() async throws {
        transport.stub(.get, "b/study-groups/7", .json(#"{"code": 10503, "msg": "Down for maintenance", "data": null}"#))
        do {
            _ = try await api.studyGroup(id: 7)
            Issue.record("expected the maintenance code")
        } catch {
            let appError = try #require(StudyGroupsAPI.appError(in: error))
            guard case .server(.general(.maintenance, _)) = appError else { throw error }
            let alert = try #require(RecoveryPolicy(catalog: .builtIn).alert(for: appError, locale: Locale(identifier: "en")))
            #expect(alert.title == "Service Unavailable")
            #expect(alert.message == "Down for maintenance")
        }
    }

    // The article's "Without the contract": the same generated client, no `repairing:`.
    @Test func withoutTheContractOneStringFailsTheCall() async throws {
        transport.stub(.get, "b/study-groups/7", .json(#"{"code": 200, "msg": "OK", "data": {"id": "7"}}"#))
        let client = Client(
            serverURL: URL(string: "https://api.example.com")!,
            transport: transport,
            middlewares: [PipelineMiddleware(ClientPipeline(logging: nil, metrics: nil), contract: backendB, generalCodes: AppCode.self)]
        )
        do {
            _ = try await client.getStudyGroup(path: .init(id: 7)).ok.body.json
            Issue.record("expected a DecodingError")
        } catch let error as ClientError {
            #expect(error.underlyingError is DecodingError)
        }
    }
}
