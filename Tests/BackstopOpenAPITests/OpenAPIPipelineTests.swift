import Backstop
import BackstopJSON
import BackstopOpenAPI
import BackstopTestSupport
import BackstopTesting
import Foundation
import HTTPTypes
import InMemoryLogging
import Logging
import MetricsTestKit
@_spi(Generated) import OpenAPIRuntime
import Testing

@Suite("A generated client's responses repaired through PipelineMiddleware, in memory")
struct OpenAPIPipelineTests {
    /// The model the generator makes of `Group`, as Foundation's `JSONDecoder` reads it.
    struct Group: Decodable, Equatable {
        var id: Int
        var name: String
        var members: [Member]
        var createdAt: Date
        var category: String?
    }

    struct Member: Decodable, Equatable {
        var id: Int
        var role: String
    }

    /// What a generated operation does: send, then collect the body its deserializer decodes.
    static func call(_ client: UniversalClient, _ operation: String, path: String) async throws -> Data {
        try await client.send(
            input: path,
            forOperation: operation,
            serializer: { path in (HTTPRequest(method: .get, scheme: nil, authority: nil, path: path), nil) },
            deserializer: { _, body in try await Data(collecting: body ?? HTTPBody(), upTo: 1 << 20) }
        )
    }

    static func decode(_ body: Data) throws -> Group {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(Group.self, from: body)
    }

    static func client(
        answering body: String, _ pipeline: ClientPipeline, throwingBusinessFailures: Bool = false
    ) throws -> UniversalClient {
        // Every path the tests call answers `body`.
        let transport = StubTransport()
        for path in ["everything", "groups", "groups/7", "members/1"] { transport.stub(.get, path, .json(body)) }
        return UniversalClient(
            serverURL: URL(string: "https://api.example")!, transport: transport,
            middlewares: [
                PipelineMiddleware(
                    pipeline, contract: EnvelopeContract.b, generalCodes: GeneralCode.self, repairing: try Documents.contract(),
                    throwingBusinessFailures: throwingBusinessFailures)
            ])
    }

    static let dirty =
        #"{"id":"123456789","name":null,"members":[{"id":1,"role":"admin"},{"id":2,"role":"owner"}],"createdAt":"2024-05-01 10:00:00"}"#

    @Test func repairsReachTheLogLineTheMetricsAndTheDriftReportRedacted() async throws {
        let handler = InMemoryLogHandler.keepingDebug()
        let metrics = TestMetrics()
        let drift = ContractDriftRecorder(metricsFactory: metrics)
        let pipeline = quietPipeline {
            $0.logging = RequestLogging(logger: Logger(label: "generated") { _ in handler })
            $0.metrics = RequestMetrics(factory: metrics)
            $0.contractDrift = drift
        }
        let client = try Self.client(answering: Self.dirty, pipeline)

        // Foundation's JSONDecoder fails on the body as sent…
        #expect(throws: DecodingError.self) { try Self.decode(Data(Self.dirty.utf8)) }
        // …and reads it once repaired.
        let body = try await Self.call(client, "getGroup", path: "/groups/7?token=123456789")
        let group = try Self.decode(body)
        #expect(group.id == 123_456_789 && group.name == "" && group.members == [Member(id: 1, role: "admin")])
        #expect(group.createdAt == Date(timeIntervalSince1970: 1_714_557_600))

        #expect(handler.entries.count == 1)
        #expect(handler.entries.first?.metadata["repairs"] == "4")
        #expect(handler.entries.first?.message.description.hasSuffix("4 repairs") == true)
        #expect(try metrics.expectCounter("backstop_repairs_total", [("operation", "getGroup")]).totalValue == 4)
        let entries = drift.report().entries
        #expect(
            Set(entries.map { "\($0.count) \($0.operation) \($0.path) \($0.action)" }) == [
                "1 getGroup $.id coerced", "1 getGroup $.name defaultedBecauseNull", "1 getGroup $.members[*] dropped",
                "1 getGroup $.createdAt coerced",
            ])
        // The request's credential-like query value is redacted where the body repeats it.
        let id = try #require(entries.first { $0.path == "$.id" })
        #expect(!id.sample.contains("123456789"))
    }

    @Test func aCleanBodyReachesTheGeneratedCodeAsSentWithNoRepairs() async throws {
        let handler = InMemoryLogHandler.keepingDebug()
        let pipeline = quietPipeline { $0.logging = RequestLogging(logger: Logger(label: "generated") { _ in handler }) }
        let clean = OpenAPIRepairTests.clean
        let body = try await Self.call(try Self.client(answering: clean, pipeline), "getGroup", path: "/groups/7")
        #expect(body == Data(clean.utf8))
        #expect(handler.entries.first?.metadata["repairs"] == "0")
    }

    @Test func anOperationTheDocumentLacksIsPassedThroughAndSaidOnce() async throws {
        let handler = InMemoryLogHandler.keepingDebug()
        let pipeline = quietPipeline { $0.logging = RequestLogging(logger: Logger(label: "generated") { _ in handler }) }
        let client = try Self.client(answering: #"{"anything":"goes"}"#, pipeline)
        for _ in 0..<3 {
            let body = try await Self.call(client, "deleteEverything", path: "/everything")
            #expect(body == Data(#"{"anything":"goes"}"#.utf8))
        }
        let warnings = handler.entries.filter { $0.level == .warning }
        #expect(warnings.count == 1)
        #expect(
            warnings.first?.message.description
                == "deleteEverything: responses not repaired: the document has no operation deleteEverything")
        #expect(handler.entries.filter { $0.metadata["repairs"] == "0" }.count == 3)
    }

    @Test func aBodyThatCannotBeRepairedFailsTheCallAsADecodingError() async throws {
        let handler = InMemoryLogHandler.keepingDebug()
        let pipeline = quietPipeline { $0.logging = RequestLogging(logger: Logger(label: "generated") { _ in handler }) }
        let client = try Self.client(answering: #"{"id":1,"role":"owner"}"#, pipeline)
        do {
            _ = try await Self.call(client, "getMember", path: "/members/1")
            Issue.record("an unrepairable body reached the generated code")
        } catch let error as ClientError {
            let failure = try #require(error.underlyingError as? APIError<NoModuleCodes, NoModuleCodes>)
            guard case .decoding(let decoding) = failure else {
                Issue.record("expected a decoding failure, got \(failure)")
                return
            }
            #expect(decoding.path == "$.role")
        }
        #expect(handler.entries.first?.metadata["layer"] == "decoding")
    }

    @Test func aBusinessFailureInsideA2xxIsThrownAsTheTypedErrorWhenAsked() async throws {
        let envelope = #"{"code":10503,"msg":"Down for maintenance","data":null}"#
        // Handed on, the envelope's `null` data would be repaired into an empty list: a failure read as "no groups".
        let handedOn = try await Self.call(try Self.client(answering: envelope, quietPipeline()), "listGroups", path: "/groups")
        #expect(String(decoding: handedOn, as: UTF8.self) == #"{"code":10503,"msg":"Down for maintenance","data":[]}"#)

        let client = try Self.client(answering: envelope, quietPipeline(), throwingBusinessFailures: true)
        do {
            _ = try await Self.call(client, "listGroups", path: "/groups")
            Issue.record("a business failure reached the generated code")
        } catch let error as ClientError {
            let failure = try #require(error.underlyingError as? APIError<GeneralCode, NoModuleCodes>)
            guard case .server(.general(.maintenance, let message)) = failure else {
                Issue.record("expected the maintenance code, got \(failure)")
                return
            }
            #expect(message == "Down for maintenance")
        }
        // A success envelope is still repaired and handed on.
        let success = try Self.client(answering: #"{"code":"200","data":[]}"#, quietPipeline(), throwingBusinessFailures: true)
        #expect(try await Self.call(success, "listGroups", path: "/groups") == Data(#"{"code":200,"data":[]}"#.utf8))
    }
}
