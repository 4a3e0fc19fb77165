import Backstop
import BackstopTestSupport
import Foundation
import Testing

@Suite("Bridging to NSError", .englishMessages)
struct BridgingTests {
    @Test(
        "error codes: server code, HTTP status, underlying code",
        arguments: [
            (StudyGroupError.server(.module(.wrongTeamCode, message: nil)), 11210005),
            (.server(.general(.tokenExpired, message: nil)), 11001),
            (.server(.unknown("42", message: nil)), 42),
            (.http(HTTPFailure(status: .serviceUnavailable)), 503),
            (.transport(TransportFailure(URLError(.timedOut))), URLError.Code.timedOut.rawValue),
            (.transport(TransportFailure(.connectionLost, underlying: POSIXError(.ECONNRESET))), Int(ECONNRESET)),
            (.transport(TransportFailure(.offline)), URLError.Code.notConnectedToInternet.rawValue),
            (.client(ClientFailure(.invalidInput)), 1),
            (.decoding(DecodingFailure(.code, at: "$.code", .missing, excerpt: "")), 3),
        ])
    func codes(error: StudyGroupError, code: Int) {
        #expect(error.errorCode == code)
        #expect((error as NSError).code == code)
    }

    @Test("text codes get a stable code")
    func textCodes() {
        let error = StudyGroupError.server(.unknown("E_SESSION", message: nil))
        #expect(error.errorCode == StudyGroupError.server(.unknown("E_SESSION", message: "other")).errorCode)
        #expect(error.errorCode != StudyGroupError.server(.unknown("E_STOCK", message: nil)).errorCode)
        #expect(error.errorCode >= 0)
        #expect((error as NSError).userInfo[StudyGroupError.serverCodeKey] as? String == "E_SESSION")
    }

    @Test("a domain per layer")
    func domains() {
        let domains = StudyGroupError.Layer.allCases.map(\.errorDomain)
        #expect(domains == ["Backstop.transport", "Backstop.http", "Backstop.decoding", "Backstop.server", "Backstop.client"])
        let error = StudyGroupError.server(.module(.wrongTeamCode, message: nil))
        #expect(error._domain == "Backstop.server")
        #if canImport(Darwin)
            #expect((error as NSError).domain == "Backstop.server")
        #else
            // Foundation on Linux bridges with the static domain only.
            #expect((error as NSError).domain == StudyGroupError.errorDomain)
        #endif
        // The explicit bridge has the layer's domain everywhere, and the same code and texts.
        #expect(error.nsError.domain == "Backstop.server")
        #expect(error.nsError.code == (error as NSError).code)
        #expect(error.nsError.localizedDescription == (error as NSError).localizedDescription)
    }

    @Test("user info carries the messages, the underlying error and the server's message")
    func userInfo() throws {
        let transport = StudyGroupError.transport(TransportFailure(URLError(.notConnectedToInternet))) as NSError
        #expect(transport.localizedDescription == "You're offline. Check your internet connection and try again.")
        #expect(transport.userInfo[NSLocalizedFailureReasonErrorKey] as? String == "The network request failed.")
        #expect(transport.localizedRecoverySuggestion == "Check your internet connection and try again.")
        let underlying = try #require(transport.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain == NSURLErrorDomain)
        #expect(underlying.code == URLError.Code.notConnectedToInternet.rawValue)
        #expect((transport.userInfo[NSDebugDescriptionErrorKey] as? String)?.hasPrefix("transport → offline") == true)

        let server = StudyGroupError.server(.module(.classNotFound, message: "班级不存在")) as NSError
        #expect(server.userInfo[StudyGroupError.serverMessageKey] as? String == "班级不存在")
        #expect(server.userInfo[StudyGroupError.serverCodeKey] as? String == "11210006")
        #expect(server.localizedDescription == "班级不存在")
        #expect(server.userInfo[NSUnderlyingErrorKey] == nil)

        let http = StudyGroupError.http(HTTPFailure(status: .unauthorized, code: 11001, message: "Token expired")) as NSError
        #expect(http.code == 401)
        #expect(http.userInfo[StudyGroupError.serverMessageKey] as? String == "Token expired")
        #expect(http.localizedRecoverySuggestion == "Sign in again.")
    }

    @Test("LocalizedError gives the same texts")
    func localizedError() {
        let error: any Error = StudyGroupError.decoding(DecodingFailure(.body, at: "$", .notJSON, excerpt: "<html>"))
        #expect(error.localizedDescription == "The server sent a response the app couldn't read. Please try again later.")
        let localized = error as? any LocalizedError
        #expect(localized?.failureReason == "The server's response was not in the expected format.")
        #expect(localized?.recoverySuggestion == "Try again later. If the problem continues, update the app.")
        #expect((StudyGroupError.server(.unknown(1, message: nil)) as any LocalizedError).recoverySuggestion == nil)
    }
}
