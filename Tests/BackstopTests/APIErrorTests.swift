import Backstop
import Foundation
import Testing

@Suite("APIError: descriptions, grouping, equality")
struct APIErrorTests {
    static let errors: [(StudyGroupError, description: String, grouping: String)] = [
        (
            .transport(TransportFailure(URLError(.timedOut))),
            "transport → timedOut → NSURLErrorDomain -1001", "transport.timedOut"
        ),
        (.transport(TransportFailure(.offline)), "transport → offline", "transport.offline"),
        (
            .http(HTTPFailure(status: .serviceUnavailable, code: 10503, message: "Back at 3am")),
            #"http → 503 Service Unavailable → code 10503 "Back at 3am""#, "http.503.10503"
        ),
        (
            .http(HTTPFailure(status: .notFound, body: Data("<h1>Not\n  Found</h1>".utf8))),
            #"http → 404 Not Found → body: <h1>Not\u{A} Found</h1>"#, "http.404"
        ),
        (
            .decoding(DecodingFailure(.code, at: "$.statusCode", .missing, excerpt: "<html>")),
            "decoding → code at $.statusCode is missing; body: <html>", "decoding.code.missing.$.statusCode"
        ),
        (
            .decoding(DecodingFailure(.payload, at: "$.data[12].tags[0]", .null, excerpt: "{}")),
            "decoding → payload at $.data[12].tags[0] is null; body: {}", "decoding.payload.null.$.data[*].tags[*]"
        ),
        (
            .server(.general(.tokenExpired, message: "Token expired")),
            #"server → general AppCode.tokenExpired (11001) → "Token expired""#, "server.general.11001"
        ),
        (
            .server(.module(.wrongTeamCode, message: nil)),
            "server → module StudyGroupCode.wrongTeamCode (11210005)", "server.module.11210005"
        ),
        (.server(.unknown("E_X", message: "Nope")), #"server → unknown code "E_X" → "Nope""#, "server.unknown.E_X"),
        (
            .client(ClientFailure(.invalidInput, detail: "phone has 9 digits")),
            "client → invalidInput → phone has 9 digits", "client.invalidInput"
        ),
    ]

    @Test("one-line developer description with the whole chain", arguments: errors)
    func description(error: StudyGroupError, description: String, grouping: String) {
        #expect(error.description == description)
        #expect(String(describing: error) == description)
    }

    @Test("long messages and bodies are cut in the description wherever their spaces fall")
    func longTextIsCut() {
        // The limits are 120 characters (HTTP), 160 (server messages) and 200 (details).
        for length in 110...210 {
            let text = String(repeating: "m", count: length) + " " + String(repeating: "n", count: 5_000)
            let errors: [StudyGroupError] = [
                .server(.unknown("E_X", message: text)),
                .http(HTTPFailure(status: .badGateway, code: 10502, message: text)),
                .http(HTTPFailure(status: .badGateway, message: text)),
                .http(HTTPFailure(status: .badGateway, body: Data(text.utf8))),
                .decoding(DecodingFailure(.body, at: "$", .notJSON, detail: text, excerpt: "<html>")),
            ]
            for error in errors {
                #expect(error.description.count < 300, "\(length) characters before the space")
                #expect(!error.description.contains(String(repeating: "n", count: 300)), "\(length) characters before the space")
            }
        }
    }

    @Test("grouping identifiers leave out volatile text", arguments: errors)
    func grouping(error: StudyGroupError, description: String, grouping: String) {
        #expect(error.groupingIdentifier == grouping)
    }

    @Test("messages and bodies do not change the grouping")
    func groupingIsStable() {
        let first = StudyGroupError.server(.module(.wrongTeamCode, message: "Wrong code 1234"))
        let second = StudyGroupError.server(.module(.wrongTeamCode, message: "Mauvais code 9876"))
        #expect(first.groupingIdentifier == second.groupingIdentifier)
        let html = StudyGroupError.decoding(DecodingFailure(.body, at: "$", .notJSON, detail: "line 1", excerpt: "<html>a"))
        let other = StudyGroupError.decoding(DecodingFailure(.body, at: "$", .notJSON, detail: "line 9", excerpt: "<html>b"))
        #expect(html.groupingIdentifier == other.groupingIdentifier)
        #expect(html != other)
    }

    @Test("underlying errors compare by domain and code")
    func underlyingEquality() {
        let timedOut = URLError(.timedOut, userInfo: ["request": "GET /groups/42"])
        #expect(
            StudyGroupError.transport(TransportFailure(timedOut))
                == .transport(TransportFailure(.timedOut, underlying: URLError(.timedOut))))
        #expect(StudyGroupError.transport(TransportFailure(timedOut)) != .transport(TransportFailure(.timedOut)))
        #expect(TransportFailure(URLError(.timedOut)) != TransportFailure(.timedOut, underlying: URLError(.cancelled)))
        #expect(
            ClientFailure(.noNetwork, underlying: POSIXError(.ENETDOWN)) == ClientFailure(.noNetwork, underlying: POSIXError(.ENETDOWN)))
        #expect(UnderlyingError(URLError(.timedOut)).hashValue == UnderlyingError(timedOut).hashValue)
    }

    @Test("every layer is Sendable and Equatable")
    func sendable() async {
        let error = StudyGroupError.http(HTTPFailure(status: .tooManyRequests, headerFields: [.retryAfter: "5"]))
        let copy = await Task.detached { error }.value
        #expect(copy == error)
        #expect(copy.layer == .http)
    }

    struct CustomStackError: Error, CustomStringConvertible {
        let description: String
    }

    struct NIOSSLError: Error {}

    @Test(
        "transport reasons from the errors networking stacks throw",
        arguments: [
            (URLError(.notConnectedToInternet) as any Error, TransportFailure.Reason.offline),
            (URLError(.dataNotAllowed), .offline),
            (URLError(.timedOut), .timedOut),
            (URLError(.cancelled), .cancelled),
            (CancellationError(), .cancelled),
            (URLError(.cannotFindHost), .cannotFindHost),
            (URLError(.dnsLookupFailed), .cannotFindHost),
            (URLError(.cannotConnectToHost), .cannotConnectToHost),
            (URLError(.networkConnectionLost), .connectionLost),
            (URLError(.secureConnectionFailed), .tlsFailure),
            (URLError(.serverCertificateUntrusted), .tlsFailure),
            (URLError(.badServerResponse), .other),
            (NSError(domain: NSURLErrorDomain, code: URLError.Code.timedOut.rawValue), .timedOut),
            (POSIXError(.ECONNREFUSED), .cannotConnectToHost),
            (POSIXError(.ECONNRESET), .connectionLost),
            (POSIXError(.ETIMEDOUT), .timedOut),
            (POSIXError(.ENETUNREACH), .offline),
            (NSError(domain: NSPOSIXErrorDomain, code: Int(ECONNREFUSED)), .cannotConnectToHost),
            (
                NSError(
                    domain: NSURLErrorDomain, code: URLError.Code.unknown.rawValue,
                    userInfo: [NSLocalizedDescriptionKey: "transfer closed with 101 bytes remaining to read"]), .connectionLost
            ),
            (
                URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "transfer closed with outstanding read data remaining"]),
                .connectionLost
            ),
            (URLError(.unknown), .other),
            // Errors are classified by value, never by the text they print: these look like other
            // stacks' errors and are not theirs (BackstopAsyncHTTPClient classifies those).
            (CustomStackError(description: "HTTPClientError.readTimeout"), .other),
            (CustomStackError(description: "the request was cancelled"), .other),
            (NIOSSLError(), .other),
            (TransportFailure(.timedOut, underlying: URLError(.timedOut)), .timedOut),
        ])
    func transportReasons(error: any Error, reason: TransportFailure.Reason) {
        let failure = TransportFailure(error)
        #expect(failure.reason == reason)
        let kept = (error as? TransportFailure)?.underlying ?? UnderlyingError(error)
        #expect(failure.underlying == kept)
    }

    @Test("apps declare their own client reasons")
    func customClientReason() {
        let cartEmpty = ClientFailure.Reason("cartEmpty", code: 9001)
        let error = AppError<NoModuleCodes>.client(ClientFailure(cartEmpty))
        #expect(error.groupingIdentifier == "client.cartEmpty")
        #expect((error as NSError).code == 9001)
        #expect(error != .client(ClientFailure(.invalidInput)))
    }
}
