import Backstop
import BackstopJSON
import BackstopOpenAPI
import BackstopTestSupport
import BadBackend
import Foundation
import InMemoryLogging
import Logging
import OpenAPIRuntime
import Testing

@Suite("Setting up the contract from a document")
struct ContractSetUpTests {
    @Test("A document that cannot be read is a clear error at set-up")
    func unreadableDocument() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/openapi.yaml")
        let unreadable = #expect(throws: OpenAPIContractError.self) { try OpenAPIContract(contentsOf: missing) }
        #expect(unreadable?.problem == .unreadable)
        #expect(unreadable?.location == "openapi.yaml")

        let notOpenAPI = #expect(throws: OpenAPIContractError.self) { try OpenAPIContract(data: Data("groups: [1, 2".utf8)) }
        #expect(notOpenAPI?.problem == .notOpenAPI)

        // BadBackend's own document with one reference broken.
        let document = String(decoding: BadBackend.openAPIDocument, as: UTF8.self)
        let broken = document.replacingOccurrences(of: "$ref: '#/components/schemas/Member'", with: "$ref: '#/components/schemas/Membr'")
        let unresolved = #expect(throws: OpenAPIContractError.self) { try OpenAPIContract(data: Data(broken.utf8)) }
        #expect(unresolved?.problem == .unresolvedReference)
        #expect(unresolved?.description.contains("Membr") == true)
    }

    /// The document the contract was made from lacks `getStudyGroup`: its bodies go to the
    /// generated code as received, and the pipeline's log says so once, not once a call.
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("An operation missing from the document: body passed through, logged once", arguments: TransportKind.allCases)
    func operationMissingFromTheDocument(transport: TransportKind) async throws {
        let document = """
            openapi: 3.1.0
            info: {title: Products only, version: 1.0.0}
            paths:
              /b/products:
                get:
                  operationId: listProducts
                  responses:
                    '200':
                      description: The products.
                      content:
                        application/json:
                          schema: {type: object}
            """
        let contract = try OpenAPIContract(data: Data(document.utf8))
        #expect(!contract.describes(operationID: "getStudyGroup"))
        let logs = InMemoryLogHandler.keepingDebug()
        let pipeline = quietPipeline { $0.logging = RequestLogging(logger: Logger(label: "generated") { _ in logs }) }
        try await withBackend { _, url in
            // One middleware, as an app has one, for the clean server and a dirty scenario.
            let middleware = PipelineMiddleware(pipeline, contract: EnvelopeContract.b, generalCodes: GeneralCode.self, repairing: contract)
            let client = Client(serverURL: url, transport: transport.make(), middlewares: [middleware])
            for id in 1...3 {
                let group = try #require(try await client.getStudyGroup(path: .init(id: id)).ok.body.json.data)
                #expect(group.id == id)
            }
            // Passed through unrepaired: the dirty answer fails in the generated code as without BackstopOpenAPI.
            let dirty = Client(
                serverURL: GeneratedClients.serverURL(url, .numbersAsStrings), transport: transport.make(), middlewares: [middleware])
            let error = await #expect(throws: ClientError.self) { _ = try await dirty.getStudyGroup(path: .init(id: 7)).ok.body.json }
            #expect(error?.underlyingError is DecodingError)
        }
        let warnings = logs.entries.filter { $0.level == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.metadata["operation"] == "getStudyGroup")
        #expect(warnings.first?.message.description.hasPrefix("getStudyGroup: responses not repaired: ") == true)
    }
}
