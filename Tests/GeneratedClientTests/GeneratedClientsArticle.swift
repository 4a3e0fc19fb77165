import Backstop
import BackstopJSON
import BackstopOpenAPI
import BackstopTestSupport
import BadBackend
import Foundation
import OpenAPIRuntime
import Testing

// The calls of the DocC article "Generated Clients" (BackstopOpenAPI.docc/GeneratedClients.md), whose
// blocks are Examples/GeneratedClient's code, run here against BadBackend's numbers-as-strings scenario.

enum GeneratedClientsArticle {
    /// "Without the contract": what the generated client's caller gets.
    static func withoutTheContract(serverURL: URL, transport: any ClientTransport, pipeline: ClientPipeline) async -> (any Error)? {
        let client = Client(
            serverURL: serverURL,
            transport: transport,
            middlewares: [PipelineMiddleware(pipeline, contract: EnvelopeContract.b, generalCodes: GeneralCode.self)]
        )
        do {
            _ = try await client.getStudyGroup(path: .init(id: 7)).ok.body.json
        } catch let error as ClientError {
            print(error.underlyingError)  // DecodingError.typeMismatch at data.id
            return error.underlyingError
        } catch {
            return error
        }
        return nil
    }

    /// "With the contract": the study group, repaired.
    static func withTheContract(
        document: Data, serverURL: URL, transport: any ClientTransport, pipeline: ClientPipeline
    ) async throws -> Components.Schemas.StudyGroup? {
        let openAPI = try OpenAPIContract(data: document)
        let client = Client(
            serverURL: serverURL,
            transport: transport,
            middlewares: [
                PipelineMiddleware(pipeline, contract: EnvelopeContract.b, generalCodes: GeneralCode.self, repairing: openAPI)
            ]
        )
        let group = try await client.getStudyGroup(path: .init(id: 7)).ok.body.json.data
        return group
    }
}

@Suite("The article “Generated Clients”")
struct GeneratedClientsArticleTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Its calls, as written, on numbers-as-strings", arguments: TransportKind.allCases)
    func articleCalls(transport: TransportKind) async throws {
        try await withBackend { _, url in
            let serverURL = GeneratedClients.serverURL(url, .numbersAsStrings)
            let document = BadBackend.openAPIDocument
            let drift = ContractDriftRecorder()
            let pipeline = quietPipeline { $0.contractDrift = drift }

            let error = await GeneratedClientsArticle.withoutTheContract(
                serverURL: serverURL, transport: transport.make(), pipeline: pipeline)
            guard case .typeMismatch(_, let context)? = error as? DecodingError else {
                Issue.record("expected DecodingError.typeMismatch, got \(String(describing: error))")
                return
            }
            #expect(context.codingPath.map(\.stringValue) == ["data", "id"])
            #expect(drift.report().entries.isEmpty)

            let group = try await GeneratedClientsArticle.withTheContract(
                document: document, serverURL: serverURL, transport: transport.make(), pipeline: pipeline)
            #expect(group?.id == 7 && group?.memberCount == 3 && group?.role == .owner)
            #expect(
                drift.report().lines == [
                    "getStudyGroup $.data.id coerced ×1", "getStudyGroup $.data.memberCount coerced ×1",
                    "getStudyGroup $.data.members[*].id coerced ×3",
                ])
        }
    }
}
