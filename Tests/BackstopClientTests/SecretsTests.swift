import Backstop
import BackstopTestSupport
import BadBackend
import Foundation
import HTTPTypes
import InMemoryLogging
import InMemoryTracing
import Logging
import Testing
import Tracing

extension BackstopClient {
    /// One definition of secrets (``Redaction``), applied before any text is cut, to the log line
    /// and its metadata and to the error the caller gets: its description and its `NSError`,
    /// underlying errors' URLs included. Each leak is tried against a real server on 127.0.0.1
    /// that echoes what it received, on both transports.
    @Suite("Secrets stay out of logs and errors")
    struct SecretsTests {
        static let token = "tok3nSECRETvalue0123456789abcdef"
        /// A value for a query item the app names secret, with what encodings disagree on.
        static let ticket = "T1cketVALUEsecret+=&spaced out/Slashes9"

        /// The session's credential, applied as `Authorization: Bearer …`, with no `secrets(of:)` of its own.
        struct PlainBearer: Authenticator {
            func apply(_ credential: String, to request: inout HTTPRequest) {
                request.headerFields[.authorization] = "Bearer \(credential)"
            }
            func refresh(_ credential: String) async throws -> String { credential }
        }

        /// A JSON string literal of `text`.
        static func json(_ text: String) -> String {
            let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
            return String(decoding: data ?? Data(), as: UTF8.self).dropFirst().dropLast().description
        }

        /// The server: `/echo-credential` answers 400 with the `Authorization` it got in its message;
        /// `/echo-target` with the target as sent and as decoded; `/long-body` answers 400 with a body
        /// that is not JSON, the credential after 100 characters; `/long-ok` the same with a 200.
        static func answer(_ request: HostileRequest) -> String {
            let authorization = request["authorization"] ?? ""
            switch request.target.split(separator: "?").first ?? "" {
            case "/echo-credential":
                return HostileServer.response(status: 400, body: #"{"code": 40001, "msg": "# + json("rejected: \(authorization)") + "}")
            case "/echo-target":
                let decoded = request.target.removingPercentEncoding ?? ""
                return HostileServer.response(
                    status: 400, body: #"{"code": 40002, "msg": "# + json("rejected \(request.target) (\(decoded))") + "}")
            case "/drift":
                let note = json(String(authorization.dropFirst(7)) + String(repeating: "z", count: 20))
                return HostileServer.response(status: 200, body: #"{"code": 200, "msg": "ok", "data": {"id": 1, "note": "# + note + "}}")
            case "/long-body":
                return HostileServer.response(
                    status: 400, contentType: "text/plain", body: String(repeating: "x", count: 100) + " " + authorization)
            default:
                return HostileServer.response(
                    status: 200, contentType: "text/plain", body: String(repeating: "y", count: 110) + authorization.dropFirst(7))
            }
        }

        /// A client of `server` on `transport` whose session applies ``token``, logging into `handler`.
        static func client(_ url: URL, _ transport: TransportKind, _ handler: InMemoryLogHandler) -> APIClient<GeneralCode> {
            makeClient(
                url, transport,
                pipeline: quietPipeline {
                    $0.redaction.queryItems.insert("ticket")
                    $0.logging = RequestLogging(logger: Logger(label: "secrets") { _ in handler })
                    $0.authentication = .session(AuthSession(authenticator: PlainBearer(), credential: token))
                })
        }

        /// Every text an error offers: descriptions, the `NSError`'s user info, underlying errors' too, their URLs.
        static func everything(of error: some Error) -> String {
            func texts(_ info: [String: Any]) -> [String] {
                info.flatMap { key, value -> [String] in
                    switch value {
                    case let error as NSError: [key, "\(error)", error.localizedDescription] + texts(error.userInfo)
                    case let url as URL: [key, url.absoluteString]
                    default: [key, "\(value)"]
                    }
                }
            }
            var all = ["\(error)", String(reflecting: error), error.localizedDescription]
            if let error = error as? APIError<GeneralCode, StudyGroupCode> { all += texts(error.nsError.userInfo) }
            all += texts((error as NSError).userInfo)
            return all.joined(separator: "\n")
        }

        /// Everything a log handler received.
        static func everything(in handler: InMemoryLogHandler) -> String {
            handler.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        }

        /// Whether `text` holds `secret` or any 8 characters of it in a row.
        static func leaks(_ secret: String, in text: String) -> Bool {
            let characters = Array(secret)
            guard characters.count > 8 else { return text.contains(secret) }
            return (0...(characters.count - 8)).contains { text.contains(String(characters[$0..<$0 + 8])) }
        }

        static func expectNoLeak(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            for secret in [token, "T1cketVALUEsecret", "Slashes9"] {
                #expect(!leaks(secret, in: text), "\(secret) leaked in: \(text)", sourceLocation: sourceLocation)
            }
            #expect(!text.contains("spaced"), "the ticket leaked in: \(text)", sourceLocation: sourceLocation)
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func theSessionsCredentialEchoedInA400sMessageIsRedactedEverywhere(transport: TransportKind) async throws {
            let server = try HostileServer.answering(Self.answer)
            defer { server.stop() }
            let handler = InMemoryLogHandler.keepingDebug()
            let client = Self.client(server.url, transport, handler)
            let error = try #require(await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "echo-credential")))
            // The credential did reach the server, and came back in the message.
            #expect(server.requests.first?["authorization"] == "Bearer \(Self.token)")
            #expect(error.serverMessage == "rejected: <redacted>")
            #expect(error.description.hasSuffix(#"→ code 40001 "rejected: <redacted>""#))
            #expect(error.nsError.userInfo[APIError<GeneralCode, StudyGroupCode>.serverMessageKey] as? String == "rejected: <redacted>")
            Self.expectNoLeak(Self.everything(of: error))
            Self.expectNoLeak(Self.everything(in: handler))
            #expect(handler.entries.first?.metadata["error"] == "\(error.description)")
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func credentialLikeAndConfiguredQueryItemsAreRedactedAsSent(transport: TransportKind) async throws {
            let server = try HostileServer.answering(Self.answer)
            defer { server.stop() }
            let handler = InMemoryLogHandler.keepingDebug()
            let client = Self.client(server.url, transport, handler)
            let query = [
                URLQueryItem(name: "access_token", value: Self.token), URLQueryItem(name: "ticket", value: Self.ticket),
                URLQueryItem(name: "page", value: "2"),
            ]
            let error = try #require(await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "echo-target", query: query)))
            let target = try #require(server.requests.first?.target)
            // As sent: `+`, `=`, `&` and the space encoded, and the server decoded it whole.
            #expect(target.contains("ticket=T1cketVALUEsecret%2B%3D%26spaced%20out/Slashes9"))
            #expect(error.serverMessage?.contains("access_token=<redacted>&ticket=<redacted>&page=2") == true)
            Self.expectNoLeak(Self.everything(of: error))
            Self.expectNoLeak(Self.everything(in: handler))
            #expect(handler.entries.first?.metadata["path"] == "/echo-target?access_token=<redacted>&ticket=<redacted>&page=2")
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aBodyExcerptIsRedactedBeforeItIsCutSoNoHalfTokenSurvives(transport: TransportKind) async throws {
            let server = try HostileServer.answering(Self.answer)
            defer { server.stop() }
            let handler = InMemoryLogHandler.keepingDebug()
            let client = Self.client(server.url, transport, handler)
            let http = try #require(await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "long-body")))
            guard case .http(let rejected) = http else {
                Issue.record("\(http)")
                return
            }
            #expect(rejected.description.hasSuffix(String(repeating: "x", count: 100) + " <redacted>"))
            #expect(!Self.leaks(Self.token, in: String(decoding: rejected.body, as: UTF8.self)))
            // A decoding failure's excerpt is cut where the token starts: its start goes too.
            let decoding = try #require(await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "long-ok")))
            guard case .decoding(let broken) = decoding else {
                Issue.record("\(decoding)")
                return
            }
            #expect(broken.excerpt.hasSuffix("y<redacted>…"))
            for error in [http, decoding] { Self.expectNoLeak(Self.everything(of: error)) }
            Self.expectNoLeak(Self.everything(in: handler))
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func anUnderlyingErrorsFailingURLLosesItsSecretQueryValues(transport: TransportKind) async throws {
            let handler = InMemoryLogHandler.keepingDebug()
            let client = Self.client(refusedURL, transport, handler)
            let query = [URLQueryItem(name: "access_token", value: Self.token), URLQueryItem(name: "ticket", value: Self.ticket)]
            let error = try #require(await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "b/echo", query: query)))
            guard case .transport(let refused) = error else {
                Issue.record("\(error)")
                return
            }
            let underlying = try #require(refused.underlying)
            if transport == .urlSession {
                let url = try #require((underlying.error as NSError).userInfo[NSURLErrorFailingURLErrorKey] as? URL)
                #expect(url.absoluteString == "http://127.0.0.1:1/b/echo?access_token=%3Credacted%3E&ticket=%3Credacted%3E")
                #expect(underlying.error is URLError)
            }
            Self.expectNoLeak(Self.everything(of: error))
            Self.expectNoLeak(Self.everything(in: handler))
        }

        /// A payload whose optional field the backend may send with the wrong type, repaired to `nil`.
        struct Noted: Decodable, Sendable {
            var id: Int
            var note: Int?
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func spansAndDriftSamplesCarryNoSecret(transport: TransportKind) async throws {
            let server = try HostileServer.answering(Self.answer)
            defer { server.stop() }
            let tracer = InMemoryTracer()
            let drift = ContractDriftRecorder()
            let client = makeClient(
                server.url, transport,
                pipeline: quietPipeline {
                    $0.tracing = .distributedTracing(tracer)
                    $0.contractDrift = drift
                    $0.authentication = .session(AuthSession(authenticator: PlainBearer(), credential: Self.token))
                })
            let query = [URLQueryItem(name: "access_token", value: Self.token)]
            _ = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "echo-credential", query: query))
            let noted = try await client.response(for: Endpoint<Noted, StudyGroupCode>(.get, "drift"))
            #expect(noted.repairs.count == 1)
            var text = ""
            // SpanAttributes is no Sequence: it hands its pairs to a function.
            func append(_ key: String, _ value: SpanAttribute) { text += "\(key)=\(value)\n" }
            for span in tracer.finishedSpans {
                text += span.operationName + "\n" + (span.status?.message ?? "") + "\n"
                span.attributes.forEach(append)
                for event in span.events { event.attributes.forEach(append) }
                for error in span.errors { text += "\(error.error)\n" }
            }
            #expect(tracer.finishedSpans.count == 2)
            #expect(text.contains("access_token=REDACTED"))
            let samples = drift.report().entries.map(\.sample)
            #expect(samples.count == 1)
            #expect(samples.first?.hasPrefix("\"<redacted>") == true)
            Self.expectNoLeak(text + samples.joined())
        }

        @Test("one definition: credential headers always, credential-like query items by default, the app's additions")
        func theDefinition() {
            #expect(Redaction.alwaysSecretHeaderFields == [.authorization, .proxyAuthorization, .cookie, .setCookie])
            for name in ["access_token", "token", "api_key", "key", "signature", "sig", "password", "secret"] {
                #expect(Redaction.defaultQueryItems.contains(name))
            }
            var redaction = Redaction(headerFields: [HTTPField.Name("X-Api-Key")!])
            redaction.queryItems.insert("ticket")
            #expect(redaction.queryItems == Redaction.defaultQueryItems.union(["ticket"]))
            #expect(ClientPipeline().redaction == Redaction())
        }
    }
}
