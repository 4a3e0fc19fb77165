import Backstop
import BackstopOpenAPI
import Foundation
import OpenAPIRuntime

/// The app's networking: the `Client` swift-openapi-generator writes from `openapi.yaml`, every
/// call through Backstop's pipeline, each JSON response repaired against that same document.
public struct StudyGroupsAPI: Sendable {
    /// The generated client: call its operations as generated.
    public let client: Client
    /// Every repair made, by operation and field: what the backend team should fix.
    public let drift: ContractDriftRecorder

    /// The document the generator read, shipped as this module's resource and read once, at
    /// launch: reading it compiles every schema, and a document it cannot read throws here,
    /// never at a call.
    public static func contract() throws(OpenAPIContractError) -> OpenAPIContract {
        try OpenAPIContract(resource: "openapi", withExtension: "yaml", in: .module)
    }

    /// - Parameters:
    ///   - serverURL: Where the backend is.
    ///   - contract: ``contract()``'s, made once for every client of the app.
    ///   - drift: Where repairs are recorded; clients of the same backend can share one.
    ///   - transport: Backstop's `StreamingURLSessionTransport` in the app; a stub transport in
    ///     unit tests.
    public init(
        serverURL: URL, contract: OpenAPIContract, drift: ContractDriftRecorder = ContractDriftRecorder(),
        transport: any ClientTransport = StreamingURLSessionTransport()
    ) {
        self.drift = drift
        let pipeline = ClientPipeline(logging: nil, metrics: nil, contractDrift: drift)
        client = Client(
            serverURL: serverURL,
            transport: transport,
            middlewares: PipelineMiddleware(
                pipeline, contract: backendB, generalCodes: AppCode.self, repairing: contract, throwingBusinessFailures: true
            ).wrapping([])
        )
    }

    /// Study group `id`, repaired where the backend broke the document; `nil` when a success
    /// envelope carries no data.
    ///
    /// - Throws: OpenAPI's `ClientError`; ``appError(in:)`` finds Backstop's error in it.
    public func studyGroup(id: Int) async throws -> Components.Schemas.StudyGroup? {
        try await client.getStudyGroup(path: .init(id: id)).ok.body.json.data
    }

    /// The products; an element no repair can save is dropped, and recorded as drift.
    public func products() async throws -> [Components.Schemas.Product] {
        try await client.listProducts().ok.body.json.data ?? []
    }

    /// Backstop's typed error inside a generated call's failure: a business code in a success
    /// status (a `server` error with the app-wide codes), or a body no repair could save
    /// (`decoding`); `nil` for anything else, such as the transport's own failure.
    public static func appError(in error: any Error) -> AppError<NoModuleCodes>? {
        (error as? ClientError)?.underlyingError as? AppError<NoModuleCodes>
    }
}
