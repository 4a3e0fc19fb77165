import Backstop
import BackstopTestSupport
import BackstopTesting
import BadBackend
import Foundation
@_spi(Generated) import OpenAPIRuntime
import Synchronization
import Testing

/// Writes down the `Authorization` of each request it sees, then passes it on.
final class AuthorizationWitness: ClientMiddleware, Sendable {
    let seen = Mutex<[String]>([])

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        seen.withLock { $0.append(request.headerFields[.authorization] ?? "none") }
        return try await next(request, body, baseURL)
    }

    var requests: [String] { seen.withLock { $0 } }
}

extension BackstopClient {
    /// Where a generated client's own middlewares run: inside the pipeline when given to
    /// `PipelineMiddleware.wrapping(_:)`, once per call when listed before it.
    @Suite("A generated client's middleware order", .timeLimit(.minutes(1)))
    struct MiddlewareOrderTests {
        /// A 401 for the first credential, then 200: the call is refreshed and replayed once.
        static func generated(middlewares: (PipelineMiddleware) -> [any ClientMiddleware]) -> UniversalClient {
            let session = AuthSession(authenticator: BearerAuthenticator(), credential: "one")
            let pipeline = quietPipeline { $0.authentication = .session(session) }
            let transport = StubTransport()
            transport.stub(.get, "products/1") { request in
                request.headerFields[.authorization] == "Bearer one" ? .status(.unauthorized) : .json("{}")
            }
            let middleware = PipelineMiddleware(pipeline, contract: EnvelopeContract.noEnvelope, generalCodes: GeneralCode.self)
            return UniversalClient(serverURL: InMemoryStageTests.hostA, transport: transport, middlewares: middlewares(middleware))
        }

        /// Given to `wrapping`, the app's middleware sees each attempt with its credential: the
        /// first and the replay after the refresh. The list is the pipeline alone.
        @Test func wrappedMiddlewaresRunAroundEachAttemptAfterAuthentication() async throws {
            let witness = AuthorizationWitness()
            var list: [any ClientMiddleware] = []
            let client = Self.generated { pipeline in
                list = pipeline.wrapping([witness])
                return list
            }
            #expect(list.count == 1)
            #expect(list.first is PipelineMiddleware)
            let answer = try await GeneratedClientTests.getItem(client, path: "/products/1")
            #expect(answer.status == 200)
            #expect(witness.requests == ["Bearer one", "Bearer one'"])
        }

        /// Listed before the pipeline, the same middleware runs once per call, before the
        /// credential: what `wrapping` exists to make visible at the call site.
        @Test func aMiddlewareListedBeforeThePipelineRunsOncePerCall() async throws {
            let witness = AuthorizationWitness()
            let client = Self.generated { pipeline in [witness, pipeline] }
            let answer = try await GeneratedClientTests.getItem(client, path: "/products/1")
            #expect(answer.status == 200)
            #expect(witness.requests == ["none"])
        }
    }
}
