import Backstop
import BackstopTestSupport
import Foundation
import Testing

/// Every kind of `APIError`, to the category and the actions the user gets by default.
@Suite("Recovery categories and default actions", .englishMessages)
struct RecoveryCategoryTests {
    let policy = RecoveryPolicy(catalog: .builtIn)
    let english = Locale(identifier: "en")

    /// The defaults a category stands for, stated once here as the spec.
    static let actions: [RecoveryCategory: [RecoveryAction.ID]] = [
        .offline: [.retry, .cancel], .timedOut: [.retry, .cancel], .serverFailure: [.retry, .cancel],
        .unauthorized: [.signIn, .cancel],
        .forbidden: [.dismiss], .notFound: [.dismiss], .rejectedInput: [.dismiss], .rateLimited: [.dismiss],
        .unavailable: [.dismiss], .unreadableResponse: [.dismiss], .unknown: [.dismiss],
    ]

    func expect(_ error: StudyGroupError, _ category: RecoveryCategory, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error.recoveryCategory == category, "\(error)", sourceLocation: sourceLocation)
        #expect(policy.category(for: error) == category, sourceLocation: sourceLocation)
        let alert = policy.alert(for: error, locale: english)
        if category == .cancelled {
            #expect(alert == nil, "cancelled is never shown", sourceLocation: sourceLocation)
        } else {
            #expect(alert?.category == category, sourceLocation: sourceLocation)
            #expect(alert?.actions.map(\.id) == Self.actions[category], "\(error)", sourceLocation: sourceLocation)
        }
    }

    static let transportCategories: [TransportFailure.Reason: RecoveryCategory] = [
        .offline: .offline,
        .timedOut: .timedOut,
        .cancelled: .cancelled,
        .cannotFindHost: .offline,
        .cannotConnectToHost: .unavailable,
        .connectionLost: .offline,
        .tlsFailure: .unknown,
        .other: .unknown,
    ]

    @Test("each transport reason", arguments: transportCategories)
    func transport(reason: TransportFailure.Reason, category: RecoveryCategory) {
        expect(.transport(TransportFailure(reason)), category)
    }

    @Test("the table covers every transport reason")
    func everyTransportReason() {
        for reason in TransportFailure.Reason.allCases {
            #expect(Self.transportCategories[reason] != nil, "\(reason) has no expected category")
        }
    }

    @Test("every status from 400 to 599")
    func statuses() {
        let special: [Int: RecoveryCategory] = [
            401: .unauthorized, 403: .forbidden, 451: .forbidden, 404: .notFound, 410: .notFound,
            408: .timedOut, 504: .timedOut, 429: .rateLimited, 503: .unavailable,
        ]
        for status in 400...599 {
            let category = special[status] ?? (status < 500 ? .rejectedInput : .serverFailure)
            expect(.http(HTTPFailure(status: .init(code: status))), category)
        }
    }

    @Test("statuses no contract should reject are unknown", arguments: [100, 200, 204, 302, 304, 600, 999])
    func otherStatuses(status: Int) {
        expect(.http(HTTPFailure(status: .init(code: status))), .unknown)
    }

    @Test(
        "each role, as a business failure and with any HTTP status",
        arguments: [
            (AppCode.tokenExpired, RecoveryCategory.unauthorized),
            (.signInRequired, .unauthorized),
            (.maintenance, .unavailable),
            (.rateLimited, .rateLimited),
        ])
    func roles(code: AppCode, category: RecoveryCategory) {
        #expect(ServerCodeRole.allCases.count == 4)
        expect(.server(.general(code, message: "m")), category)
        for status in [200, 400, 401, 500, 503] {
            expect(.http(HTTPFailure(status: .init(code: status), code: code.code, message: "m")), category)
        }
    }

    @Test("business codes without a role are rejected input, whichever type declares them")
    func codesWithoutRole() {
        expect(.server(.general(.verifyCodeExpired, message: nil)), .rejectedInput)
        expect(.server(.module(.wrongTeamCode, message: "Wrong team code")), .rejectedInput)
        expect(.server(.module(.classNotFound, message: nil)), .rejectedInput)
        expect(.server(.unknown(11140003, message: "Already checked in")), .rejectedInput)
        expect(.server(.unknown("E_UNKNOWN", message: nil)), .rejectedInput)
    }

    @Test("with an HTTP error, a code without a role keeps the status's category")
    func codesWithStatus() {
        expect(.http(HTTPFailure(status: .notFound, code: 11210006, message: "No class")), .notFound)
        expect(.http(HTTPFailure(status: .internalServerError, code: 77, message: nil)), .serverFailure)
        expect(.http(HTTPFailure(status: .badRequest, code: 11210005)), .rejectedInput)
    }

    @Test("every decoding failure is an unreadable response")
    func decoding() {
        for part in DecodingFailure.Part.allCases {
            for problem in DecodingFailure.Problem.allCases {
                expect(.decoding(DecodingFailure(part, at: "$.data", problem, excerpt: "<html>")), .unreadableResponse)
            }
        }
    }

    @Test(
        "client failures",
        arguments: [
            (ClientFailure.Reason.invalidInput, RecoveryCategory.rejectedInput),
            (.noNetwork, .offline),
            (.init("cartEmpty", code: 9001), .unknown),
        ])
    func client(reason: ClientFailure.Reason, category: RecoveryCategory) {
        expect(.client(ClientFailure(reason, detail: "d")), category)
    }

    @Test("every category but cancelled has actions, and the table above states them all")
    func defaultActions() {
        for category in RecoveryCategory.allCases {
            #expect(category.defaultActions.map(\.id) == (Self.actions[category] ?? []), "\(category)")
        }
        #expect(RecoveryCategory.cancelled.defaultActions.isEmpty)
    }

    @Test("roles of the built-in actions")
    func actionRoles() {
        #expect(RecoveryAction.retry.role == nil)
        #expect(RecoveryAction.signIn.role == nil)
        #expect(RecoveryAction.confirm.role == nil)
        #expect(RecoveryAction.cancel.role == .cancel)
        #expect(RecoveryAction.dismiss.role == .cancel)
    }
}
