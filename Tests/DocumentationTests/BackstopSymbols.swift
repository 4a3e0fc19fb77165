import AsyncHTTPClient
import Backstop
import BackstopAsyncHTTPClient
import BackstopJSON
import BackstopTracing
import Foundation
import HTTPTypes
import OpenAPIURLSession
import Testing

// The examples in the comments of Backstop's public symbols, as they are written there.

func sendWithAClient() async throws {
    let client = APIClient<AppCode>(
        baseURL: URL(string: "https://api.example.com/v1")!,
        contract: EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))
    )
    let group: StudyGroup = try await client.send(Endpoint<StudyGroup, StudyGroupCode>(.get, "groups/42"))
    show(group)
}

func sendAnEndpoint() async throws {
    let join = Endpoint<StudyGroup, StudyGroupCode>(.post, "groups/join", body: JoinRequest(code: "X7"))
    let group = try await client.send(join)
    show(group)
}

func streamResponses() -> APIClient<AppCode> {
    let backendB = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))
    let transport = StreamingURLSessionTransport(maximumResponseBytes: 1 << 20)
    let client = APIClient<AppCode>(baseURL: baseURL, contract: backendB, transport: transport)
    return client
}

func followRedirects() -> (ClientPipeline, Endpoint<StudyGroup, StudyGroupCode>) {
    var pipeline = ClientPipeline()
    pipeline.redirects = RedirectPolicy(maximumRedirects: 3)
    // An endpoint whose answer lives on a CDN, another origin, that needs no credential:
    let export = Endpoint<StudyGroup, StudyGroupCode>(.get, "groups/42/export", redirects: .followingOtherOrigins)
    return (pipeline, export)
}

func describeEnvelopes() -> [EnvelopeContract] {
    let backendB = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))

    let backendC = EnvelopeContract(
        code: "statusCode", message: ["message", "result.message"],
        payload: "result.data", success: .codes([200]))
    return [backendB, backendC]
}

struct LegacyContract: ResponseContract {
    var description: String { "errno at $.errno, 0 is success, payload at $.body" }

    func envelope(of body: ParsedJSON?, status: HTTPResponse.Status) throws(DecodingFailure) -> Envelope {
        guard let body, case .integer(let errno)? = body.value(at: ["errno"]) else {
            throw DecodingFailure(.code, at: "errno", .missing, in: body)
        }
        if errno == 0 { return Envelope(.success(payloadAt: "body")) }
        var message: String?
        if case .string(let text)? = body.value(at: ["errstr"]) { message = text }
        return Envelope(.failure(code: RawServerCode(Int(errno)), message: message))
    }
}

func unwrapAResponse(_ data: Data, response: HTTPResponse) throws(AppError<StudyGroupCode>) -> StudyGroup {
    let group = try contract.unwrap(
        StudyGroup.self, from: data, response: response,
        throwing: AppError<StudyGroupCode>.self
    ).value
    return group
}

func readTheServerError(_ error: AppError<StudyGroupCode>) {
    if case .module(.classNotFound, _)? = error.serverError { showGone() }
}

extension ClientFailure.Reason {
    static let cartEmpty = Self("cartEmpty", code: 9001)
}

func checkOut(_ cart: [Product]) throws(AppError<CartCode>) {
    guard !cart.isEmpty else {
        throw AppError<CartCode>.client(ClientFailure(.cartEmpty))
    }
}

func installTheMessageFiles() throws {
    if let folder = Bundle.main.url(forResource: "ErrorMessages", withExtension: nil) {
        MessageCatalog.standard = .builtIn.merging(try MessageCatalog(contentsOf: folder))
    }
}

func configureAuthentication() -> ClientPipeline {
    let session = AuthSession(authenticator: BackendBAuthenticator(refresher: refresher), credential: savedTokens)
    var pipeline = ClientPipeline()
    pipeline.authentication = .session(session)
    return pipeline
}

func configureThePipeline() -> APIClient<AppCode> {
    var pipeline = ClientPipeline()
    pipeline.timeout = .seconds(30)
    pipeline.authentication = .session(session)
    pipeline.generalCodes = GeneralCodeEvents(roles: [.maintenance])
    let client = APIClient<AppCode>(baseURL: baseURL, contract: backendB, pipeline: pipeline)
    return client
}

func giveAGeneratedClientThePipeline() throws -> Client {
    let pipeline = configureThePipeline().pipeline
    let generated = Client(
        serverURL: try Servers.Server1.url(),
        transport: StreamingURLSessionTransport(),
        middlewares: PipelineMiddleware(pipeline, contract: backendB, generalCodes: AppCode.self)
            .wrapping([RequestIDMiddleware()])
    )
    return generated
}

func traceThePipeline() -> ClientPipeline {
    var pipeline = ClientPipeline()
    pipeline.tracing = .distributedTracing
    return pipeline
}

func defineTheSecrets() -> ClientPipeline {
    var pipeline = ClientPipeline()
    pipeline.redaction.headerFields.insert(HTTPField.Name("X-Api-Key")!)
    pipeline.redaction.queryItems.insert("ticket")
    return pipeline
}

func overrideTheAlerts() {
    RecoveryPolicy.standard = RecoveryPolicy(overrides: [
        .code(StudyGroupCode.classNotFound): RecoveryOverride(category: .notFound),
        .code(AppCode.maintenance): RecoveryOverride(
            titleKey: "alert.title.maintenance",
            actions: [.dismiss, .openStatusPage]),
        .client(.cartEmpty): RecoveryOverride(category: .rejectedInput),
        .category(.forbidden): RecoveryOverride(actions: [.dismiss, .contactSupport]),
    ])
}

func installThePolicy() {
    RecoveryPolicy.standard = RecoveryPolicy(
        catalog: .builtIn.merging(appMessages),
        overrides: [.category(.offline): RecoveryOverride(actions: [.retry, .openSettings, .cancel])])
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
func presentAFailedLoad(with presenter: RecoveryPresenter) async {
    do { try await feed.load() } catch { presenter.present(error, retry: { try await feed.load() }) }
}

func runOnAServer() -> APIClient<AppCode> {
    let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .backstop)
    let client = APIClient<AppCode>(
        baseURL: baseURL, contract: backendB,
        transport: HTTPClientTransport(client: httpClient))
    return client
}
