import BackstopTestSupport
import BadBackend
import Foundation
import Testing

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("Business codes: general, study group and unknown")
struct BusinessCodeTests {
    static let businessScenarios = Scenario.all.filter { $0.businessCode != nil }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Each code in a 200 failure envelope", arguments: businessScenarios)
    func inAnOKEnvelope(scenario: Scenario) async throws {
        try await withBackend { _, url in
            let answer = try await HTTP.fetch(url, "/scenarios/\(scenario.name)/b/products")
            #expect(answer.status == 200)
            #expect(answer.value(at: "code") as? Int == scenario.businessCode)
            #expect((answer.value(at: "msg") as? String)?.isEmpty == false)
            #expect(answer.value(at: "data") is NSNull)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The same code with an HTTP error when asked")
    func withAnHTTPError() async throws {
        try await withBackend { _, url in
            let maintenance = try await HTTP.fetch(url, "/scenarios/maintenance/c/products?status=503")
            #expect(maintenance.status == 503)
            #expect(maintenance.text == #"{"statusCode":10503,"result":{"message":"Down for maintenance"}}"#)
            let expired = try await HTTP.fetch(url, "/scenarios/token-expired/a/account?status=401")
            #expect(expired.status == 401)
            #expect(expired.value(at: "statusCode") as? Int == GeneralCode.tokenExpired.rawValue)
            // Not a status: ignored rather than trapping.
            let odd = try await HTTP.fetch(url, "/scenarios/unknown-code/b/products?status=7")
            #expect(odd.status == 200)
            #expect(odd.value(at: "code") as? Int == Scenario.unknownBusinessCode)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The catalogue has the seed's codes")
    func codes() {
        #expect(GeneralCode.tokenExpired.rawValue == 11001)
        #expect(StudyGroupCode.allCases.count == 12)
        #expect(StudyGroupCode.wrongTeamCode.rawValue == 11210005)
        #expect(StudyGroupCode.clockFrequencyInvalid.rawValue == 11210036)
        #expect(Scenario(name: "student-count-max") == .studyGroup(.studentCountMax))
    }
}
