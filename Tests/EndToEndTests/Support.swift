import AsyncHTTPClient
import Backstop
import BadBackend
import Clocks
import Foundation
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

// The app's codes are BadBackend's own: an app declares the same values with the roles it acts on.
extension GeneralCode: ServerCode {
    public var role: ServerCodeRole? {
        switch self {
        case .tokenExpired: .tokenExpired
        case .signInRequired: .signInRequired
        case .maintenance: .maintenance
        case .rateLimited: .rateLimited
        }
    }
}

extension StudyGroupCode: ServerCode {}

typealias StudyGroupError = APIError<GeneralCode, StudyGroupCode>

/// The study group BadBackend serves, as an app models it.
struct StudyGroup: Decodable, Sendable, Equatable {
    enum Role: String, Decodable, Sendable, UnknownCaseRepresentable {
        case owner, member, unknown
        static var unknownCase: Role { .unknown }
    }

    struct Member: Decodable, Sendable, Equatable {
        var id: Int
        var nickname: String
    }

    var id: Int
    var name: String
    var teamCode: String
    var role: Role
    var memberCount: Int
    var members: [Member]

    /// Study group 7 as served clean.
    static let seven = StudyGroup(id: 7, name: "Calculus B", teamCode: "K7Q2", role: .owner, memberCount: 3,
                                  members: [Member(id: 1, nickname: "Ada"), Member(id: 2, nickname: "Grace"), Member(id: 3, nickname: "Linus")])
}

/// The two transports every scenario is checked with.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case asyncHTTPClient

    var testDescription: String { rawValue }

    func make() -> any ClientTransport {
        switch self {
        case .urlSession: URLSessionTransport()
        case .asyncHTTPClient: AsyncHTTPClientTransport(configuration: .init(client: Self.httpClient))
        }
    }

    /// A refused connection is Backstop's to retry, not AsyncHTTPClient's. Lives for the
    /// whole test process, so it is never shut down.
    private static let httpClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}

/// The real client for backend B on `transport`; its clock is never advanced, so no call
/// times out, and it makes one attempt unless `middlewares` retry.
func makeClient(
    _ baseURL: URL, _ transport: TransportKind, contract: EnvelopeContract = .b,
    middlewares: [any ClientMiddleware] = []
) -> APIClient<GeneralCode> {
    APIClient<GeneralCode>(baseURL: baseURL, contract: contract, decoder: ResilientJSONDecoder(), middlewares: middlewares,
                           transport: transport.make(), timeout: .seconds(30), clock: TestClock())
}

extension EnvelopeContract {
    static let a = EnvelopeContract(code: "statusCode", message: ["message"], payload: "result.data", success: .codes([200]))
    static let b = EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200]))
    static let c = EnvelopeContract(code: "statusCode", message: ["message", "result.message"], payload: "result.data",
                                    success: .codes([200]))

    static func style(_ style: EnvelopeStyle) -> EnvelopeContract {
        switch style {
        case .a: .a
        case .b: .b
        case .c: .c
        }
    }
}

/// Runs a fresh BadBackend on 127.0.0.1, port 0, around `body`, and stops it.
@available(macOS 14, iOS 17, tvOS 17, *)
func withBackend<Result>(
    _ configuration: BadBackend.Configuration = .init(),
    clock: TestClock<Duration> = TestClock(),
    _ body: (BadBackend, URL) async throws -> Result
) async throws -> Result {
    let backend = BadBackend(configuration: configuration, clock: clock)
    return try await backend.withRunning { url in try await body(backend, url) }
}
