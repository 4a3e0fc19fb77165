import Backstop
import BackstopTestSupport
import BackstopTesting
import BadBackend
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

extension BackstopClient {
    /// ``RedirectPolicy``'s rules: in memory on a transport that answers redirects, then on both
    /// transports against two raw-socket servers, two origins (127.0.0.1 on two ports).
    @Suite("Redirects")
    struct RedirectTests {
        /// A redirect to `location`, with an empty body.
        static func redirect(_ status: HTTPResponse.Status, to location: String) -> StubResponse {
            StubResponse(status: status, headerFields: [.location: location], body: Data())
        }

        /// The answer at the end of the redirects: a JSON string.
        static let answered = StubResponse(status: .ok, body: Data("\"ok\"".utf8))

        /// The URL each request went to, the base URL joined with the path as the transports join them.
        static func urls(_ transport: StubTransport) -> [String] {
            transport.requests.map { $0.baseURL.absoluteString + $0.path }
        }

        /// The credentials and a harmless header an app might send.
        static let credentials: HTTPFields = [
            .authorization: "Bearer secret-token", .cookie: "session=secret-cookie", .proxyAuthorization: "Basic cHJveHk=",
            HTTPField.Name("X-Api-Key")!: "secret-key", .accept: "application/json",
        ]

        static func client(_ transport: StubTransport, base: String = "https://api.example.com/v1") -> APIClient<GeneralCode> {
            APIClient(baseURL: URL(string: base)!, pipeline: quietPipeline(), transport: transport)
        }

        // MARK: In memory

        @Test func aSameOriginRedirectIsFollowedWithTheCallsHeaderFields() async throws {
            let transport = StubTransport()
            transport.stub(.get, "items", Self.redirect(.found, to: "/v1/moved?page=2"))
            transport.stub(.get, "v1/moved?page=2", Self.answered)
            let value = try await Self.client(transport).send(
                Endpoint<String, NoModuleCodes>(.get, "items", headerFields: Self.credentials))
            #expect(value == "ok")
            let requests = transport.requests
            #expect(Self.urls(transport) == ["https://api.example.com/v1/items", "https://api.example.com:443/v1/moved?page=2"])
            #expect(requests[1].headerFields[.authorization] == "Bearer secret-token")
            #expect(requests[1].headerFields[HTTPField.Name("X-Api-Key")!] == "secret-key")
        }

        @Test(arguments: [HTTPResponse.Status.seeOther, .found, .movedPermanently])
        func aPostRedirectedBy303Or302Or301BecomesAGetWithoutItsBody(status: HTTPResponse.Status) async throws {
            let transport = StubTransport()
            transport.stub(.post, "orders", Self.redirect(status, to: "done"))
            transport.stub(.get, "v1/done", Self.answered)
            _ = try await Self.client(transport).send(Endpoint<String, NoModuleCodes>(.post, "orders", body: ["n": 1]))
            let requests = transport.requests
            #expect(requests.map(\.method) == [.post, .get])
            #expect(requests[1].body.isEmpty)
            #expect(requests[1].headerFields[.contentType] == nil)
            #expect(Self.urls(transport)[1] == "https://api.example.com:443/v1/done")
        }

        @Test(arguments: [HTTPResponse.Status.temporaryRedirect, .permanentRedirect])
        func a307Or308SendsTheSameMethodAndBodyAgain(status: HTTPResponse.Status) async throws {
            let transport = StubTransport()
            transport.stub(.post, "orders", Self.redirect(status, to: "/v2/orders"))
            transport.stub(.post, "v2/orders", Self.answered)
            _ = try await Self.client(transport).send(Endpoint<String, NoModuleCodes>(.post, "orders", body: ["n": 1]))
            let requests = transport.requests
            #expect(requests.map(\.method) == [.post, .post])
            #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"n":1}"#, #"{"n":1}"#])
        }

        /// The default: the redirect is the answer, an `.http` failure that keeps its `Location`.
        @Test(arguments: [HTTPResponse.Status.found, .temporaryRedirect, .permanentRedirect])
        func aRedirectToAnotherOriginIsAnHTTPFailureThatKeepsTheLocation(status: HTTPResponse.Status) async throws {
            let transport = StubTransport()
            transport.stub(.get, "items", Self.redirect(status, to: "https://evil.example.net/collect"))
            let error = await failure(
                of: Self.client(transport), Endpoint<String, NoModuleCodes>(.get, "items", headerFields: Self.credentials))
            guard case .http(let failure)? = error else {
                Issue.record("expected an .http failure, got \(String(describing: error))")
                return
            }
            #expect(failure.status == status)
            #expect(failure.headerFields[.location] == "https://evil.example.net/collect")
            #expect(transport.requests.count == 1)
        }

        /// Another port or another scheme is another origin, as another host is.
        @Test(arguments: ["https://api.example.com:8443/v1/x", "http://api.example.com/v1/x", "https://example.com/v1/x"])
        func anotherPortSchemeOrHostIsAnotherOrigin(location: String) async throws {
            let transport = StubTransport()
            transport.stub(.get, "items", Self.redirect(.found, to: location))
            let error = await failure(of: Self.client(transport), Endpoint<String, NoModuleCodes>(.get, "items"))
            guard case .http(let failure)? = error else {
                Issue.record("expected an .http failure, got \(String(describing: error))")
                return
            }
            #expect(failure.status == .found)
            #expect(transport.requests.count == 1)
        }

        /// Opted in, the request to the other origin carries only the allowed fields: no
        /// `Authorization`, `Proxy-Authorization`, `Cookie` or `X-Api-Key`.
        @Test func anEndpointOptedInFollowsAnotherOriginWithoutCredentials() async throws {
            // Both requests' paths are /files/1, on two base URLs: the first gets the redirect.
            let transport = StubTransport()
            transport.stub(.get, "files/1", Self.redirect(.found, to: "https://cdn.example.net/files/1"), Self.answered)
            let value = try await Self.client(transport).send(
                Endpoint<String, NoModuleCodes>(.get, "files/1", headerFields: Self.credentials, redirects: .followingOtherOrigins))
            #expect(value == "ok")
            let requests = transport.requests
            #expect(Self.urls(transport) == ["https://api.example.com/v1/files/1", "https://cdn.example.net:443/files/1"])
            #expect(requests[1].headerFields.map(\.name) == [.accept])
        }

        /// Puts the session's credential in a header of its own name, which no deny list knows.
        struct HeaderAuthenticator: Authenticator {
            func apply(_ credential: String, to request: inout HTTPRequest) {
                request.headerFields[HTTPField.Name("X-Session-Token")!] = credential
            }
            func refresh(_ credential: String) async throws -> String { credential }
        }

        /// The credential the session applied stays home, whatever the header it went in.
        @Test func theSessionsCredentialNeverFollowsARedirectToAnotherOrigin() async throws {
            let transport = StubTransport()
            transport.stub(.get, "files/1", Self.redirect(.temporaryRedirect, to: "https://cdn.example.net/files/1"), Self.answered)
            var client = Self.client(transport)
            client.pipeline.authentication = .session(AuthSession(authenticator: HeaderAuthenticator(), credential: "session-secret"))
            _ = try await client.send(Endpoint<String, NoModuleCodes>(.get, "files/1", redirects: .followingOtherOrigins))
            let requests = transport.requests
            #expect(requests.count == 2)
            #expect(Self.urls(transport) == ["https://api.example.com/v1/files/1", "https://cdn.example.net:443/files/1"])
            #expect(requests[0].headerFields[HTTPField.Name("X-Session-Token")!] == "session-secret")
            #expect(requests[1].headerFields[HTTPField.Name("X-Session-Token")!] == nil)
            #expect(!requests[1].headerFields.contains { $0.value.contains("session-secret") })
        }

        /// https to http is never followed, even by an endpoint that follows other origins.
        @Test func httpsToHttpIsNeverFollowed() async throws {
            let transport = StubTransport()
            transport.stub(.get, "items", Self.redirect(.movedPermanently, to: "http://api.example.com/v1/items"))
            let error = await failure(
                of: Self.client(transport), Endpoint<String, NoModuleCodes>(.get, "items", redirects: .followingOtherOrigins))
            guard case .http(let failure)? = error else {
                Issue.record("expected an .http failure, got \(String(describing: error))")
                return
            }
            #expect(failure.status == .movedPermanently)
            #expect(transport.requests.count == 1)
        }

        /// A loop ends after ``RedirectPolicy/maximumRedirects``: the last redirect is the answer.
        @Test func redirectsEndAfterTheMaximum() async throws {
            let transport = StubTransport()
            transport.stub(.get, "items", Self.redirect(.found, to: "/v1/again"))
            transport.stub(.get, "v1/again", Self.redirect(.found, to: "/v1/again"))
            let error = await failure(of: Self.client(transport), Endpoint<String, NoModuleCodes>(.get, "items"))
            guard case .http(let failure)? = error else {
                Issue.record("expected an .http failure, got \(String(describing: error))")
                return
            }
            #expect(failure.status == .found)
            #expect(transport.requests.count == 1 + RedirectPolicy.default.maximumRedirects)
        }

        @Test func thePolicyNeverFollowsNone() async throws {
            let transport = StubTransport()
            transport.stub(.get, "items", Self.redirect(.found, to: "/v1/again"))
            var client = Self.client(transport)
            client.pipeline.redirects = RedirectPolicy.never
            let error = await failure(of: client, Endpoint<String, NoModuleCodes>(.get, "items"))
            #expect(error.map { if case .http = $0 { true } else { false } } == true)
            #expect(transport.requests.count == 1)
        }

        // MARK: Against real servers

        static let ok = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\n\r\n\"ok\""

        static func redirect(_ status: Int, to location: String) -> String {
            "HTTP/1.1 \(status) Redirect\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n"
        }

        /// The transport does not follow a redirect to another port; the call answers it as an
        /// `.http` failure with its `Location`, and the other server hears nothing.
        @Test(arguments: TransportKind.allCases, [302, 307])
        func neitherTransportFollowsARedirectToAnotherOrigin(transport: TransportKind, status: Int) async throws {
            let other = try HostileServer.answering { _ in Self.ok }
            defer { other.stop() }
            let first = try HostileServer.answering { _ in Self.redirect(status, to: "\(other.url.absoluteString)/collect") }
            defer { first.stop() }
            let client = makeClient(first.url, transport, contract: .noEnvelope)
            let error = await failure(of: client, Endpoint<String, NoModuleCodes>(.get, "items", headerFields: Self.credentials))
            guard case .http(let failure)? = error else {
                Issue.record("expected an .http failure, got \(String(describing: error))")
                return
            }
            #expect(failure.status.code == status)
            #expect(failure.headerFields[.location] == "\(other.url.absoluteString)/collect")
            #expect(other.requests.isEmpty)
        }

        @Test(arguments: TransportKind.allCases)
        func bothTransportsFollowASameOriginRedirectWithTheCallsHeaderFields(transport: TransportKind) async throws {
            let server = try HostileServer.answering { request in request.target == "/items" ? Self.redirect(302, to: "/moved") : Self.ok }
            defer { server.stop() }
            let client = makeClient(server.url, transport, contract: .noEnvelope)
            let value = try await client.send(Endpoint<String, NoModuleCodes>(.get, "items", headerFields: Self.credentials))
            #expect(value == "ok")
            let requests = server.requests
            #expect(requests.map(\.target) == ["/items", "/moved"])
            #expect(requests.last?["authorization"] == "Bearer secret-token")
            #expect(requests.last?["x-api-key"] == "secret-key")
        }

        @Test(arguments: TransportKind.allCases)
        func bothTransportsFollowAnotherOriginOptedInWithoutCredentials(transport: TransportKind) async throws {
            let other = try HostileServer.answering { _ in Self.ok }
            defer { other.stop() }
            let first = try HostileServer.answering { _ in Self.redirect(307, to: "\(other.url.absoluteString)/files/1") }
            defer { first.stop() }
            let client = makeClient(first.url, transport, contract: .noEnvelope)
            let value = try await client.send(
                Endpoint<String, NoModuleCodes>(.get, "files/1", headerFields: Self.credentials, redirects: .followingOtherOrigins))
            #expect(value == "ok")
            let received = try #require(other.requests.first)
            #expect(received.target == "/files/1")
            for name in ["authorization", "cookie", "proxy-authorization", "x-api-key"] {
                #expect(received[name] == nil, "\(name) reached the other origin")
            }
            #expect(first.requests.first?["authorization"] == "Bearer secret-token")
        }
    }
}
