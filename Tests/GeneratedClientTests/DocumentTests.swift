import Backstop
import BackstopOpenAPI
import BackstopTestSupport
import BadBackend
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("BadBackend's OpenAPI document")
struct DocumentTests {
    /// The document as kept in the repository, which the generator plugin reads through this
    /// target's `openapi.yaml` symlink.
    static let kept: Data? = try? Data(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("openapi.yaml"))

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("GET /openapi.yaml serves the document kept in the repository, byte for byte")
    func servedIsKept() async throws {
        let kept = try #require(Self.kept)
        #expect(BadBackend.openAPIDocument == kept)
        try await withBackend { _, url in
            let (body, response) = try await URLSession.shared.data(from: url.appendingPathComponent("openapi.yaml"))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/yaml")
            #expect(body == kept)
            #expect(String(decoding: body.prefix(15), as: UTF8.self) == "openapi: 3.1.0\n")
        }
    }

    /// Every operation the document describes, on the clean server: the generated code decodes
    /// each answer strictly, and the contract finds nothing to repair.
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Every clean answer decodes as generated and needs no repair", arguments: TransportKind.allCases)
    func everyCleanAnswerValidates(transport: TransportKind) async throws {
        try await withBackend { _, url in
            let repairs = RecordingRepairs(try GeneratedClients.contract())
            let client = GeneratedClients.client(url, nil, transport, repairing: repairs)
            let plain = GeneratedClients.client(url, nil, transport)
            let clients: [(Client, (any ResponseRepairing)?)] = [(client, repairs), (plain, nil)]
            for (api, repairing) in clients {
                // Style B.
                #expect(try await api.listProducts().ok.body.json.data?.map(\.category) == [.phone, .audio, .gift])
                for id in 1...3 { #expect(try await api.getProduct(path: .init(id: id)).ok.body.json.data?.id == id) }
                #expect(try await api.listStudyGroups().ok.body.json.data?.map(\.id) == [7, 8, 9])
                #expect(try await api.getStudyGroup(path: .init(id: 42)).ok.body.json.data?.role == .owner)
                var tokens = try #require(try await api.signIn().ok.body.json.data)
                tokens = try #require(try await api.refreshTokens(body: .json(.init(refreshToken: tokens.refreshToken))).ok.body.json.data)
                let account = GeneratedClients.client(
                    url, nil, transport, repairing: repairing, middlewares: [BearerToken(token: tokens.accessToken)])
                #expect(try await account.getAccount().ok.body.json.data?.plan == .pro)
                // Style A.
                #expect(try await api.listProductsA().ok.body.json.result.data?.count == 3)
                #expect(try await api.getProductA(path: .init(id: 1)).ok.body.json.message == "success")
                #expect(try await api.listStudyGroupsA().ok.body.json.result.data?.map(\.memberCount) == [3, 2, 4])
                #expect(try await api.getStudyGroupA(path: .init(id: 42)).ok.body.json.result.data?.memberCount == 3)
                tokens = try #require(try await api.signInA().ok.body.json.result.data)
                #expect(try await api.refreshTokensA(body: .json(.init(refreshToken: tokens.refreshToken))).ok.body.json.result.data != nil)
                // Style C.
                #expect(try await api.listProductsC().ok.body.json.result.data?.count == 3)
                #expect(try await api.getProductC(path: .init(id: 3)).ok.body.json.result.data?.stock == 0)
                #expect(try await api.listStudyGroupsC().ok.body.json.result.data?.map(\.role) == [.owner, .member, .member])
                #expect(try await api.getStudyGroupC(path: .init(id: 42)).ok.body.json.message == nil)
                tokens = try #require(try await api.signInC().ok.body.json.result.data)
                #expect(try await api.refreshTokensC(body: .json(.init(refreshToken: tokens.refreshToken))).ok.body.json.result.data != nil)
            }
            #expect(repairs.lines.isEmpty)
        }
    }

    /// Failures keep the documented envelope: a product that does not exist, an account without a token.
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Documented failures decode as the failure envelopes", arguments: TransportKind.allCases)
    func failureEnvelopes(transport: TransportKind) async throws {
        try await withBackend { _, url in
            let repairs = RecordingRepairs(try GeneratedClients.contract())
            let client = GeneratedClients.client(url, nil, transport, repairing: repairs)
            guard case .default(statusCode: 404, let missing) = try await client.getProduct(path: .init(id: 9)) else {
                Issue.record("expected the default response with 404")
                return
            }
            #expect(try missing.body.json == .init(code: 40400, msg: "No product 9"))
            guard case .default(statusCode: 401, let unauthorized) = try await client.getAccountC() else {
                Issue.record("expected the default response with 401")
                return
            }
            #expect(try unauthorized.body.json.statusCode == 10401)
            #expect(repairs.lines.isEmpty)
        }
    }
}
