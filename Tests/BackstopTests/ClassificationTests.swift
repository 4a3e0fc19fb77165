import Backstop
import Testing

@Suite("Classifying business codes")
struct ClassificationTests {
    @Test(
        "general, then module, then unknown",
        arguments: [
            (RawServerCode(11001), ServerError<AppCode, StudyGroupCode>.general(.tokenExpired, message: "m")),
            (11210005, .module(.wrongTeamCode, message: "m")),
            (11210006, .module(.classNotFound, message: "m")),
            (11140003, .unknown(11140003, message: "m")),
            (-99999, .unknown(-99999, message: "m")),
            ("11001", .general(.tokenExpired, message: "m")),
            ("E_UNKNOWN", .unknown("E_UNKNOWN", message: "m")),
        ])
    func intCodes(code: RawServerCode, expected: ServerError<AppCode, StudyGroupCode>) {
        #expect(ServerError<AppCode, StudyGroupCode>(code: code, message: "m") == expected)
    }

    @Test("a code both types declare is general")
    func generalWins() {
        #expect(ServerError<AppCode, StudyGroupCode>(code: 11001, message: nil) == .general(.tokenExpired, message: nil))
        #expect(ServerError<NoModuleCodes, StudyGroupCode>(code: 11001, message: nil) == .module(.clashesWithGeneral, message: nil))
    }

    @Test(
        "String codes match text and numbers alike",
        arguments: [
            (RawServerCode("E_SESSION"), ServerError<StringGeneralCode, StringModuleCode>.general(.sessionExpired, message: nil)),
            ("E_STOCK", .module(.outOfStock, message: nil)),
            (40001, .general(.numeric, message: nil)),
            ("40001", .general(.numeric, message: nil)),
            ("e_stock", .unknown("e_stock", message: nil)),
        ])
    func stringCodes(code: RawServerCode, expected: ServerError<StringGeneralCode, StringModuleCode>) {
        #expect(ServerError<StringGeneralCode, StringModuleCode>(code: code, message: nil) == expected)
    }

    @Test("Int and String code types mix")
    func mixed() {
        #expect(ServerError<AppCode, StringModuleCode>(code: "E_STOCK", message: nil) == .module(.outOfStock, message: nil))
        #expect(ServerError<StringGeneralCode, StudyGroupCode>(code: "11210005", message: nil) == .module(.wrongTeamCode, message: nil))
    }

    @Test("numeric text is the number; other text stays text")
    func rawCodes() {
        #expect(RawServerCode("200") == 200)
        #expect(RawServerCode("200").intValue == 200)
        #expect(RawServerCode("007").intValue == nil)
        #expect(RawServerCode("007") != 7)
        #expect(RawServerCode("+1").intValue == nil)
        #expect(RawServerCode(-5).stringValue == "-5")
        #expect(Set<RawServerCode>([200, "200"]).count == 1)
        #expect(RawServerCode(200).description == "200")
        #expect(RawServerCode("E1").description == #""E1""#)
    }

    @Test("a shared layer's error is reclassified for the module")
    func reclassify() {
        let shared = AppError<NoModuleCodes>.server(.unknown(11210005, message: "Wrong"))
        #expect(shared.reclassified(for: StudyGroupCode.self) == .server(.module(.wrongTeamCode, message: "Wrong")))
        #expect(shared.reclassified(for: CheckInCode.self) == .server(.unknown(11210005, message: "Wrong")))
        let general = AppError<NoModuleCodes>.server(.general(.tokenExpired, message: nil))
        #expect(general.reclassified(for: StudyGroupCode.self) == .server(.general(.tokenExpired, message: nil)))
        let module = StudyGroupError.server(.module(.classNotFound, message: nil))
        #expect(module.reclassified(for: NoModuleCodes.self) == .server(.unknown(11210006, message: nil)))
        let transport = StudyGroupError.transport(TransportFailure(.offline))
        #expect(transport.reclassified(for: CheckInCode.self) == .transport(TransportFailure(.offline)))
    }

    @Test("roles come from the codes that declare them", arguments: ServerCodeRole.allCases)
    func roles(role: ServerCodeRole) throws {
        let code = try #require([AppCode.tokenExpired, .signInRequired, .maintenance, .rateLimited].first { $0.role == role })
        #expect(StudyGroupError.server(.general(code, message: nil)).role == role)
        #expect(StudyGroupError.http(HTTPFailure(status: .unauthorized, code: code.code)).role == role)
    }

    @Test("most errors have no role")
    func noRole() {
        #expect(StudyGroupError.server(.general(.verifyCodeExpired, message: nil)).role == nil)
        #expect(StudyGroupError.server(.module(.wrongTeamCode, message: nil)).role == nil)
        #expect(StudyGroupError.server(.unknown(1, message: nil)).role == nil)
        #expect(StudyGroupError.http(HTTPFailure(status: .unauthorized)).role == nil)
        #expect(StudyGroupError.transport(TransportFailure(.offline)).role == nil)
    }

    /// Compiles only while the switch is exhaustive: each module sees its codes and the general ones.
    func handle(_ error: StudyGroupError) -> String {
        switch error {
        case .server(.module(.wrongTeamCode, _)), .server(.module(.classNotFound, _)): "check the team code"
        case .server(.module(.clashesWithGeneral, _)): "unreachable: general wins"
        case .server(.general(let code, _)): "general \(code)"
        case .server(.unknown(_, let message)): message ?? "unknown"
        case .transport, .http, .decoding, .client: "alert"
        }
    }

    /// A module without codes needs no `.module` case at all.
    func handle(_ error: AppError<NoModuleCodes>) -> String {
        switch error {
        case .server(.general(.tokenExpired, _)): "sign in"
        case .server(.general): "general"
        case .server(.unknown): "unknown"
        case .transport, .http, .decoding, .client: "alert"
        }
    }

    @Test("exhaustive switches compile and route")
    func switches() {
        #expect(handle(StudyGroupError.server(.module(.wrongTeamCode, message: nil))) == "check the team code")
        #expect(handle(StudyGroupError.server(.unknown(1, message: "x"))) == "x")
        #expect(handle(AppError<NoModuleCodes>.server(.general(.tokenExpired, message: nil))) == "sign in")
    }

    @Test(
        "a code's description stays one short line, whatever the backend sent",
        arguments: [
            (RawServerCode(200), "200"),
            (RawServerCode("E1001"), #""E1001""#),
            (RawServerCode("E1\nE2\t\"x\""), #""E1\u{A}E2\u{9}\"x\"""#),
            (RawServerCode("\u{1B}[2J\u{202E}"), #""\u{1B}[2J\u{202E}""#),
            (RawServerCode(String(repeating: "a", count: 41)), "\"" + String(repeating: "a", count: 40) + "…\""),
        ])
    func codeDescription(code: RawServerCode, shown: String) {
        #expect(code.description == shown)
        #expect(!code.description.contains("\n"))
    }
}
