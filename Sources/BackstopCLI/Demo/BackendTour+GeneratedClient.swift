import Backstop
import BackstopJSON
import BackstopOpenAPI
import BadBackend
import Foundation
import HTTPTypes
import Logging
@_spi(Generated) import OpenAPIRuntime

@available(macOS 14, iOS 17, tvOS 17, *)
extension BackendTour {
    /// What the generated `getStudyGroup` decodes: backend B's envelope around a study group,
    /// the properties its `openapi.yaml` requires, decoded strictly as generated code does.
    struct GeneratedStudyGroup: Decodable, Sendable, CustomStringConvertible {
        struct Payload: Decodable, Sendable {
            let id: Int
            let name: String
            let teamCode: String
            let role: String
            let memberCount: Int
        }

        let code: Int
        let msg: String
        let data: Payload?

        var description: String {
            guard let data else { return "Envelope(code: \(code), data: nil)" }
            return
                "StudyGroup(id: \(data.id), name: \(data.name), teamCode: \(data.teamCode), role: .\(data.role), memberCount: \(data.memberCount))"
        }
    }

    /// A generated client's call on a dirty scenario: it fails behind `PipelineMiddleware`
    /// alone, and succeeds once `OpenAPIContract`, from the document BadBackend serves, repairs it.
    func generatedClientStep() async {
        begin(
            "A generated client meets numbers as strings: BackstopOpenAPI repairs against openapi.yaml",
            "swift-openapi-generator's code decodes strictly with Foundation, so behind PipelineMiddleware alone one \"id\": \"7\" "
                + "fails the call. OpenAPIContract, made once from the openapi.yaml BadBackend serves, repairs the body against "
                + "getStudyGroup's schema before the generated code sees it. (The tour calls UniversalClient by hand, as generated "
                + "code does; Tests/GeneratedClientTests runs the generator's own client.)",
            code: [
                "let openAPI = try OpenAPIContract(data: document)  // GET /openapi.yaml",
                "PipelineMiddleware(pipeline, contract: backendB, generalCodes: AppCode.self, repairing: openAPI)",
                "try await client.getStudyGroup(path: .init(id: 7)).ok.body.json",
            ])
        let openAPI: OpenAPIContract
        do {
            openAPI = try OpenAPIContract(data: BadBackend.openAPIDocument)
        } catch {
            block("app", [terminal.paint("openapi.yaml: \(error)", .bad)])
            return
        }
        let scenario = baseURL.appendingPathComponent("scenarios/numbers-as-strings")
        let plain = await getStudyGroup(generatedClient(scenario, repairing: nil))
        block("plain", [plain])
        block("log", logLines())
        clearLogs()
        let repaired = await getStudyGroup(generatedClient(scenario, repairing: openAPI))
        block("repaired", [repaired])
        block("log", logLines())
        block("read", [TourArticle.generatedClients.reference])
    }

    /// A `UniversalClient`, as generated code makes one, behind the app's pipeline.
    private func generatedClient(_ serverURL: URL, repairing: OpenAPIContract?) -> UniversalClient {
        let clientLog = clientLog
        let pipeline = ClientPipeline(
            logging: RequestLogging(logger: Logger(label: "backstop.client") { _ in clientLog }), contractDrift: drift, timeout: nil,
            retry: Self.retryPolicy, clock: retryClock)
        return UniversalClient(
            serverURL: serverURL, transport: StreamingURLSessionTransport(),
            middlewares: [
                PipelineMiddleware(pipeline, contract: BuiltInContracts.b, generalCodes: AppCode.self, repairing: repairing)
            ])
    }

    /// `getStudyGroup(id: 7)` as the generated code sends and decodes it, shown as the app gets it.
    private func getStudyGroup(_ client: UniversalClient) async -> String {
        do {
            let group = try await client.send(
                input: 7, forOperation: "getStudyGroup",
                serializer: { id in
                    var request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/b/study-groups/\(id)")
                    request.headerFields[.accept] = "application/json"
                    return (request, nil)
                },
                deserializer: { _, body in
                    let data = try await Data(collecting: body ?? HTTPBody(), upTo: 1 << 20)
                    return try JSONDecoder().decode(GeneratedStudyGroup.self, from: data)
                })
            return terminal.paint("\(group)", .good)
        } catch let error as ClientError {
            return terminal.paint("ClientError(\(error.operationID)): \(Self.decodingProblem(error.underlyingError))", .bad)
        } catch {
            return terminal.paint("\(error)", .bad)
        }
    }

    /// A `DecodingError` as a line: its kind and coding path.
    static func decodingProblem(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error as? DecodingError {
        case .typeMismatch(let type, let context)?: return "DecodingError.typeMismatch(\(type)) at \(path(context))"
        case .valueNotFound(let type, let context)?: return "DecodingError.valueNotFound(\(type)) at \(path(context))"
        case .keyNotFound(let key, let context)?: return "DecodingError.keyNotFound(\(key.stringValue)) at \(path(context))"
        case .dataCorrupted(let context)?: return "DecodingError.dataCorrupted at \(path(context))"
        default: return UntrustedText.escaped("\(error)")
        }
    }
}
