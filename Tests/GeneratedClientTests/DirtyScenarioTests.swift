import Backstop
import BackstopJSON
import BackstopOpenAPI
import BackstopTestSupport
import BadBackend
import Foundation
import OpenAPIRuntime
import Testing

/// Each dirty-data scenario BadBackend serves, through the client swift-openapi-generator made
/// from BadBackend's document, on both transports: the operation fails with `PipelineMiddleware`
/// alone, and succeeds when BackstopOpenAPI's `OpenAPIContract` repairs the body, with these
/// repairs (in the order made) and this drift.
@Suite("A generated client through every dirty scenario")
struct DirtyScenarioTests {
    /// What `getStudyGroup(id: 7)` needs repaired in each scenario, and the drift that makes.
    static let studyGroupRepairs: [Dirt: (repairs: [String], drift: [String])] = [
        .numbersAsStrings: (
            [
                "$.data.id: coerced", "$.data.memberCount: coerced", "$.data.members[0].id: coerced",
                "$.data.members[1].id: coerced", "$.data.members[2].id: coerced",
            ],
            [
                "getStudyGroup $.data.id coerced ×1", "getStudyGroup $.data.memberCount coerced ×1",
                "getStudyGroup $.data.members[*].id coerced ×3",
            ]
        ),
        .nullsAndMissingFields: (
            ["$.data.teamCode: defaultedBecauseNull", "$.data.memberCount: defaultedBecauseMissing"],
            ["getStudyGroup $.data.memberCount defaultedBecauseMissing ×1", "getStudyGroup $.data.teamCode defaultedBecauseNull ×1"]
        ),
        .unknownEnumValues: (["$.data.role: fellBack"], ["getStudyGroup $.data.role fellBack ×1"]),
        .brokenArrayElement: (
            ["$.data.members[1].id: defaultedBecauseNull", "$.data.members[1].nickname: coerced"],
            ["getStudyGroup $.data.members[*].id defaultedBecauseNull ×1", "getStudyGroup $.data.members[*].nickname coerced ×1"]
        ),
    ]

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "Without BackstopOpenAPI the operation fails with a DecodingError inside ClientError", arguments: TransportKind.allCases,
        Dirt.allCases)
    func failsPlain(transport: TransportKind, dirt: Dirt) async throws {
        try await withBackend { _, url in
            let client = GeneratedClients.client(url, dirt, transport)
            let error = await #expect(throws: ClientError.self) {
                _ = try await client.getStudyGroup(path: .init(id: 7)).ok.body.json
            }
            #expect(error?.operationID == "getStudyGroup")
            #expect(error?.underlyingError is DecodingError)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "With OpenAPIContract it succeeds, with the repairs and drift each scenario needs", arguments: TransportKind.allCases, Dirt.allCases
    )
    func succeedsRepaired(transport: TransportKind, dirt: Dirt) async throws {
        try await withBackend { _, url in
            let drift = ContractDriftRecorder()
            let repairs = RecordingRepairs(try GeneratedClients.contract())
            let client = GeneratedClients.client(
                url, dirt, transport, pipeline: quietPipeline { $0.contractDrift = drift }, repairing: repairs)
            let envelope = try await client.getStudyGroup(path: .init(id: 7)).ok.body.json
            let group = try #require(envelope.data)
            #expect(envelope.code == 200)
            #expect(group.id == 7)
            #expect(group.name == "Calculus B")
            switch dirt {
            case .numbersAsStrings:
                #expect(group.memberCount == 3 && group.members.map(\.id) == [1, 2, 3] && group.role == .owner)
            case .nullsAndMissingFields:
                #expect(group.teamCode == "" && group.memberCount == 0)
            case .unknownEnumValues:
                #expect(group.role == .member)  // the document's x-backstop-fallback
            case .brokenArrayElement:
                #expect(group.members.map(\.nickname) == ["Ada", "42", "Linus"] && group.members.map(\.id) == [1, 0, 3])
            }
            let expected = try #require(Self.studyGroupRepairs[dirt])
            #expect(repairs.lines == expected.repairs)
            #expect(drift.report().lines == expected.drift)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A clean answer passes through the same, with no repairs and no drift", arguments: TransportKind.allCases)
    func cleanPassesThrough(transport: TransportKind) async throws {
        try await withBackend { _, url in
            let drift = ContractDriftRecorder()
            let repairs = RecordingRepairs(try GeneratedClients.contract())
            let client = GeneratedClients.client(
                url, nil, transport, pipeline: quietPipeline { $0.contractDrift = drift }, repairing: repairs)
            let group = try #require(try await client.getStudyGroup(path: .init(id: 7)).ok.body.json.data)
            #expect(group.teamCode == "K7Q2" && group.role == .owner && group.members.count == 3)
            #expect(repairs.lines.isEmpty)
            #expect(drift.report().entries.isEmpty)
        }
    }

    /// One element of a list that cannot be repaired is dropped; the rest arrive.
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A broken product in the list is dropped", arguments: TransportKind.allCases)
    func brokenListElementDropped(transport: TransportKind) async throws {
        try await withBackend { _, url in
            let plain = GeneratedClients.client(url, .brokenArrayElement, transport)
            await #expect(throws: ClientError.self) { _ = try await plain.listProducts().ok.body.json }

            let drift = ContractDriftRecorder()
            let repairs = RecordingRepairs(try GeneratedClients.contract())
            let client = GeneratedClients.client(
                url, .brokenArrayElement, transport, pipeline: quietPipeline { $0.contractDrift = drift }, repairing: repairs)
            let products = try #require(try await client.listProducts().ok.body.json.data)
            #expect(products.map(\.id) == [1, 3])
            #expect(repairs.lines == ["$.data[1]: dropped"])
            #expect(drift.report().lines == ["listProducts $.data[*] dropped ×1"])
        }
    }
}
