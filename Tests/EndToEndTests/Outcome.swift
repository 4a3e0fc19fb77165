import Backstop
import BackstopJSON
import BackstopTestSupport
import BadBackend
import Foundation

/// What a call came to, reduced to what stays the same from run to run: the payload and its
/// repairs, or the error with its volatile parts (dates, underlying errors) left out; and the
/// alert the recovery layer would show.
struct Outcome: Equatable, CustomStringConvertible {
    enum Received: Equatable {
        /// The payload, and each repair as `path kind-found action`.
        case payload(StudyGroup, repairs: [String])
        case server(ServerError<GeneralCode, StudyGroupCode>)
        case http(status: Int, code: Int?, message: String?, retryAfter: String?, body: String)
        case decoding(DecodingFailure.Part, path: String, DecodingFailure.Problem)
        case transport(TransportFailure.Reason)
        case other(String)
    }

    var received: Received
    /// The alert's category and buttons; `nil` when there is no alert.
    var alert: Alert?

    struct Alert: Equatable {
        var category: RecoveryCategory
        var actions: [RecoveryAction.ID]
    }

    init(_ received: Received, alert: RecoveryCategory? = nil, _ actions: [RecoveryAction.ID] = []) {
        self.received = received
        self.alert = alert.map { Alert(category: $0, actions: actions) }
    }

    init(_ result: Result<APIResponse<StudyGroup>, StudyGroupError>) {
        switch result {
        case .success(let response):
            received = .payload(response.payload, repairs: response.repairs.map { "\($0.path) \($0.found.kind) \($0.action)" })
            alert = nil
        case .failure(let error):
            received =
                switch error {
                case .server(let serverError): .server(serverError)
                case .http(let failure):
                    .http(
                        status: failure.status.code, code: failure.code?.intValue, message: failure.message,
                        retryAfter: failure.headerFields[.retryAfter], body: String(decoding: failure.body, as: UTF8.self))
                case .decoding(let failure): .decoding(failure.part, path: failure.path, failure.problem)
                case .transport(let failure): .transport(failure.reason)
                case .client: .other(error.description)
                }
            alert = RecoveryPolicy().alert(for: error, locale: Locale(identifier: "en")).map {
                Alert(category: $0.category, actions: $0.actions.map(\.id))
            }
        }
    }

    var description: String { "\(received), alert: \(alert.map { "\($0.category) \($0.actions)" } ?? "none")" }
}

extension Outcome {
    /// What `GET /scenarios/<scenario>/b/study-groups/7` comes to for a client without retries.
    static func expected(for scenario: Scenario) -> Outcome {
        switch scenario {
        case .dirty(.numbersAsStrings):
            return Outcome(
                .payload(
                    .seven,
                    repairs: [
                        "$.data.id string coerced", "$.data.memberCount string coerced", "$.data.members[0].id string coerced",
                        "$.data.members[1].id string coerced", "$.data.members[2].id string coerced",
                    ]))
        case .dirty(.nullsAndMissingFields):
            var group = StudyGroup.seven
            group.teamCode = ""
            group.memberCount = 0
            return Outcome(
                .payload(
                    group,
                    repairs: [
                        "$.data.teamCode null defaultedBecauseNull",
                        "$.data.memberCount missing defaultedBecauseMissing",
                    ]))
        case .dirty(.unknownEnumValues):
            var group = StudyGroup.seven
            group.role = .unknown
            return Outcome(.payload(group, repairs: ["$.data.role string fellBack"]))
        case .dirty(.brokenArrayElement):
            // The broken member, {"id":null,"nickname":42}, is one lenient decoding can mend.
            var group = StudyGroup.seven
            group.members[1] = StudyGroup.Member(id: 0, nickname: "42")
            return Outcome(
                .payload(
                    group,
                    repairs: [
                        "$.data.members[1].id null defaultedBecauseNull",
                        "$.data.members[1].nickname number coerced",
                    ]))
        case .general(let code):
            let (message, category, actions): (String, RecoveryCategory, [RecoveryAction.ID]) =
                switch code {
                case .tokenExpired: ("Token expired", .unauthorized, [.signIn, .cancel])
                case .signInRequired: ("Please sign in", .unauthorized, [.signIn, .cancel])
                case .maintenance: ("Down for maintenance", .unavailable, [.dismiss])
                case .rateLimited: ("Too many requests", .rateLimited, [.dismiss])
                }
            return Outcome(.server(.general(code, message: message)), alert: category, actions)
        case .studyGroup(let code):
            return Outcome(.server(.module(code, message: studyGroupMessages[code])), alert: .rejectedInput, [.dismiss])
        case .unknownCode:
            return Outcome(
                .server(.unknown(RawServerCode(77_777), message: "Something new went wrong")),
                alert: .rejectedInput, [.dismiss])
        case .hostileMessage:
            // Kept as received in the error; what an alert shows of it is `UntrustedText.forUser`'s.
            return Outcome(
                .server(.unknown(RawServerCode(77_777), message: Scenario.hostileText)),
                alert: .rejectedInput, [.dismiss])
        case .httpStatus(let status):
            let (reason, category, actions): (String, RecoveryCategory, [RecoveryAction.ID]) =
                switch status {
                case 400: ("Bad Request", .rejectedInput, [.dismiss])
                case 401: ("Unauthorized", .unauthorized, [.signIn, .cancel])
                case 403: ("Forbidden", .forbidden, [.dismiss])
                case 404: ("Not Found", .notFound, [.dismiss])
                case 408: ("Request Timeout", .timedOut, [.retry, .cancel])
                case 409: ("Conflict", .rejectedInput, [.dismiss])
                case 429: ("Too Many Requests", .rateLimited, [.dismiss])
                case 500: ("Internal Server Error", .serverFailure, [.retry, .cancel])
                case 501: ("Not Implemented", .serverFailure, [.retry, .cancel])
                case 502: ("Bad Gateway", .serverFailure, [.retry, .cancel])
                case 503: ("Service Unavailable", .unavailable, [.dismiss])
                default: ("Gateway Timeout", .timedOut, [.retry, .cancel])
                }
            return Outcome(
                .http(
                    status: status, code: status * 100, message: reason, retryAfter: status == 429 ? "1" : nil,
                    body: #"{"code":\#(status * 100),"msg":"\#(reason)","data":null}"#),
                alert: category, actions)
        case .htmlErrorPage:
            return Outcome(
                .http(
                    status: 502, code: nil, message: nil, retryAfter: nil,
                    body: """
                        <!DOCTYPE html>
                        <html><head><title>502 Bad Gateway</title></head>
                        <body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>
                        """), alert: .serverFailure, [.retry, .cancel])
        case .emptyBody:
            return Outcome(.decoding(.body, path: "$", .emptyBody), alert: .unreadableResponse, [.dismiss])
        case .truncatedBody:
            return Outcome(.decoding(.body, path: "$", .notJSON), alert: .unreadableResponse, [.dismiss])
        case .wrongContentType, .slow, .burst:
            return Outcome(.payload(.seven, repairs: []))
        case .connectionClosedMidBody:
            return Outcome(.transport(.connectionLost), alert: .offline, [.retry, .cancel])
        case .outage:
            return Outcome(
                .http(
                    status: 503, code: 50300, message: "Down for an outage", retryAfter: "30",
                    body: #"{"code":50300,"msg":"Down for an outage","data":null}"#),
                alert: .unavailable, [.dismiss])
        }
    }

    /// What BadBackend's study group codes say, as its envelopes carry it.
    static let studyGroupMessages: [StudyGroupCode: String] = [
        .wrongTeamCode: "Wrong team code", .classNotFound: "Class not found", .nicknameExists: "Nickname already exists",
        .joinClassThreeTimes: "Joined this class three times", .curIdentifierError: "Wrong current identity",
        .identityNickNameExists: "Nickname already used for this identity", .createClassMax: "Too many classes created",
        .checkClassCodeMax: "Too many class code checks", .joinTeamMax: "Too many teams joined",
        .studentCountMax: "The class is full", .folderLevelLimit: "Folders nest too deep",
        .clockFrequencyInvalid: "Invalid check-in frequency",
    ]
}
