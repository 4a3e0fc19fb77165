import Backstop
import BackstopTestSupport
import Foundation
import Testing

extension RecoveryAction {
    static let discardDraft = RecoveryAction("discardDraft", role: .destructive, title: "Discard Draft")
}

extension ClientFailure.Reason {
    static let cartEmpty = Self("cartEmpty", code: 9001)
}

/// A module whose code has the same number as `StudyGroupCode.wrongTeamCode` and means something else.
enum LibraryCode: Int, ServerCode {
    case bookLost = 11210005
}

@Suite("Recovery overrides, per code and per category", .englishMessages)
struct RecoveryOverrideTests {
    let english = Locale(identifier: "en")
    let catalog = MessageCatalog.builtIn.merging(
        MessageCatalog([
            "en": [
                "alert.title.wrongTeamCode": "Check the Team Code",
                "alert.message.wrongTeamCode": "Ask your teacher for the team code.",
                "alert.title.maintenance": "Back Soon",
                "alert.action.openSettings": "Open Settings",
            ],
            "ko": ["alert.title.wrongTeamCode": "팀 코드를 확인하세요"],
        ]))

    func policy(_ overrides: RecoveryOverrides) -> RecoveryPolicy {
        RecoveryPolicy(catalog: catalog, overrides: overrides)
    }

    @Test("a module code gets its own title, message and actions; the rest keep theirs")
    func moduleCode() throws {
        let policy = policy([
            .code(StudyGroupCode.wrongTeamCode): RecoveryOverride(
                titleKey: "alert.title.wrongTeamCode", messageKey: "alert.message.wrongTeamCode",
                actions: [.confirm, .contactSupport])
        ])
        let alert = try #require(policy.alert(for: StudyGroupError.server(.module(.wrongTeamCode, message: nil)), locale: english))
        #expect(alert.title == "Check the Team Code")
        #expect(alert.message == "Ask your teacher for the team code.")
        #expect(alert.actions.map(\.id) == [.confirm, "contactSupport"])
        #expect(alert.actions.map(\.title) == ["Confirm", "Contact Support"])
        #expect(alert.category == .rejectedInput)

        let other = try #require(policy.alert(for: StudyGroupError.server(.module(.classNotFound, message: "No class")), locale: english))
        #expect(other.title == "Couldn't Complete Request")
        #expect(other.message == "No class")
        #expect(other.actions.map(\.id) == [.dismiss])

        // Another module's code with the same number is another code.
        let library = try #require(policy.alert(for: AppError<LibraryCode>.server(.module(.bookLost, message: "Lost")), locale: english))
        #expect(library.title == "Couldn't Complete Request")
        #expect(library.message == "Lost")
    }

    @Test("a general code's override applies to every module, with an HTTP error too")
    func generalCode() throws {
        let policy = policy([
            .code(AppCode.maintenance): RecoveryOverride(titleKey: "alert.title.maintenance", actions: [.dismiss, .contactSupport])
        ])
        for error in [
            StudyGroupError.server(.general(.maintenance, message: "Back at 3am")),
            .http(HTTPFailure(status: .serviceUnavailable, code: 10503, message: "Back at 3am")),
        ] {
            let alert = try #require(policy.alert(for: error, locale: english))
            #expect(alert.category == .unavailable)
            #expect(alert.title == "Back Soon")
            #expect(alert.message == "Back at 3am")
            #expect(alert.actions.map(\.id) == [.dismiss, "contactSupport"])
        }
        let checkIn = try #require(policy.alert(for: AppError<CheckInCode>.server(.general(.maintenance, message: nil)), locale: english))
        #expect(checkIn.title == "Back Soon")
        let plain503 = try #require(policy.alert(for: StudyGroupError.http(HTTPFailure(status: .serviceUnavailable)), locale: english))
        #expect(plain503.title == "Service Unavailable")
    }

    @Test("a code as sent matches unknown and typed codes alike; a typed override wins")
    func rawCode() throws {
        let policy = policy([
            .code(11140003): RecoveryOverride(category: .forbidden),
            .code(11210005): RecoveryOverride(actions: [.contactSupport]),
            .code(StudyGroupCode.wrongTeamCode): RecoveryOverride(actions: [.confirm]),
        ])
        let unknown = StudyGroupError.server(.unknown(11140003, message: "Already checked in"))
        #expect(policy.category(for: unknown) == .forbidden)
        #expect(policy.alert(for: unknown, locale: english)?.title == "Access Denied")
        #expect(policy.alert(for: StudyGroupError.server(.module(.wrongTeamCode, message: nil)))?.actions.map(\.id) == [.confirm])
        #expect(policy.alert(for: AppError<LibraryCode>.server(.module(.bookLost, message: nil)))?.actions.map(\.id) == ["contactSupport"])
        #expect(
            policy.alert(for: AppError<NoModuleCodes>.server(.unknown("11210005", message: nil)))?.actions.map(\.id) == ["contactSupport"])
    }

    @Test("a category override changes that category only")
    func category() throws {
        let policy = policy([.category(.offline): RecoveryOverride(actions: [.retry, .openSettings, .cancel])])
        let offline = try #require(policy.alert(for: StudyGroupError.transport(TransportFailure(.offline)), locale: english))
        #expect(offline.actions.map(\.id) == [.retry, "openSettings", .cancel])
        #expect(offline.title == "You're Offline")
        let noNetwork = try #require(policy.alert(for: StudyGroupError.client(ClientFailure(.noNetwork)), locale: english))
        #expect(noNetwork.actions.map(\.id) == [.retry, "openSettings", .cancel])
        let timedOut = try #require(policy.alert(for: StudyGroupError.transport(TransportFailure(.timedOut)), locale: english))
        #expect(timedOut.actions.map(\.id) == [.retry, .cancel])
    }

    @Test("what a code override leaves out comes from its category's override, then the defaults")
    func layering() throws {
        let policy = policy([
            .code(StudyGroupCode.classNotFound): RecoveryOverride(category: .notFound),
            .category(.notFound): RecoveryOverride(actions: [.dismiss, .contactSupport]),
            .category(.rejectedInput): RecoveryOverride(titleKey: "alert.title.wrongTeamCode"),
            .code(StudyGroupCode.wrongTeamCode): RecoveryOverride(actions: [.confirm]),
        ])
        let moved = try #require(policy.alert(for: StudyGroupError.server(.module(.classNotFound, message: "Gone")), locale: english))
        #expect(moved.category == .notFound)
        #expect(moved.title == "Not Found")
        #expect(moved.message == "Gone")
        #expect(moved.actions.map(\.id) == [.dismiss, "contactSupport"])

        let layered = try #require(policy.alert(for: StudyGroupError.server(.module(.wrongTeamCode, message: nil)), locale: english))
        #expect(layered.title == "Check the Team Code")
        #expect(layered.actions.map(\.id) == [.confirm])
    }

    @Test("an app's client reason gets a category; cancelled silences a code")
    func clientAndSilence() {
        let policy = policy([
            .client(.cartEmpty): RecoveryOverride(category: .rejectedInput),
            .code(StudyGroupCode.classNotFound): RecoveryOverride(category: .cancelled),
        ])
        let cart = StudyGroupError.client(ClientFailure(.cartEmpty))
        #expect(cart.recoveryCategory == .unknown)
        #expect(policy.category(for: cart) == .rejectedInput)
        #expect(policy.alert(for: StudyGroupError.server(.module(.classNotFound, message: nil))) == nil)
    }

    @Test("a failed token refresh maps to sign-in, and keeps the refresh's error")
    func refreshFailure() throws {
        let error = StudyGroupError.client(ClientFailure(.tokenRefreshFailed, underlying: URLError(.badServerResponse)))
        #expect(error.recoveryCategory == .unauthorized)
        let alert = try #require(policy([:]).alert(for: error, locale: english))
        #expect(alert.category == .unauthorized)
        #expect(alert.title == "Sign In Required")
        #expect(alert.actions.map(\.id) == [.signIn, .cancel])
        if case .client(let failure) = error { #expect(failure.underlying?.code == URLError.badServerResponse.rawValue) }
        #expect(StudyGroupError.client(ClientFailure(.tooManyRefreshes)).recoveryCategory == .unauthorized)
        #expect(StudyGroupError.client(ClientFailure(.signedOut)).recoveryCategory == .unauthorized)
        // The code that reaches the user when no refresh could fix it maps there already.
        #expect(StudyGroupError.server(.general(.tokenExpired, message: nil)).recoveryCategory == .unauthorized)
        #expect(StudyGroupError.http(HTTPFailure(status: .unauthorized, code: 11001)).recoveryCategory == .unauthorized)
    }

    @Test("keys no language has are ignored, never shown; no actions means OK")
    func missingKeys() throws {
        let policy = policy([.category(.forbidden): RecoveryOverride(titleKey: "alert.title.nowhere", messageKey: "nowhere", actions: [])])
        let alert = try #require(policy.alert(for: StudyGroupError.http(HTTPFailure(status: .forbidden)), locale: english))
        #expect(alert.title == "Access Denied")
        #expect(alert.message == "You don't have permission to do that.")
        #expect(alert.actions == [.dismiss])
    }

    @Test("an override's message: the user's language, then the server's message, then English")
    func messagePrecedence() throws {
        let catalog = catalog.merging(MessageCatalog(["ko": ["alert.message.wrongTeamCode": "선생님께 팀 코드를 물어보세요."]]))
        let policy = RecoveryPolicy(
            catalog: catalog,
            overrides: [
                .code(StudyGroupCode.wrongTeamCode): RecoveryOverride(messageKey: "alert.message.wrongTeamCode")
            ])
        let withMessage = StudyGroupError.server(.module(.wrongTeamCode, message: "团队代码错误"))
        #expect(policy.alert(for: withMessage, locale: Locale(identifier: "ko"))?.message == "선생님께 팀 코드를 물어보세요.")
        #expect(policy.alert(for: withMessage, locale: Locale(identifier: "zh-Hans"))?.message == "团队代码错误")
        let withoutMessage = StudyGroupError.server(.module(.wrongTeamCode, message: " "))
        #expect(policy.alert(for: withoutMessage, locale: Locale(identifier: "zh-Hans"))?.message == "Ask your teacher for the team code.")
    }

    @Test("overrides are data: built from a literal, compared, changed by key")
    func data() {
        var overrides: RecoveryOverrides = [.category(.offline): RecoveryOverride(actions: [.retry])]
        #expect(overrides[.category(.offline)]?.actions == [.retry])
        #expect(overrides[.category(.timedOut)] == nil)
        overrides[.code(StudyGroupCode.wrongTeamCode)] = RecoveryOverride(category: .notFound)
        #expect(overrides != RecoveryOverrides())
        #expect(overrides[.code(StudyGroupCode.wrongTeamCode)] != overrides[.code(LibraryCode.bookLost)])
    }
}
