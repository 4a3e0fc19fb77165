import Backstop
import BackstopTestSupport
import Foundation
import Testing

/// An alert's title and message belong together: each category's title goes with a message
/// about the same thing, in every built-in language, however the error reached the category.
@Suite("Recovery alerts: each title with a message that belongs to it", .englishMessages)
struct RecoveryWordsTests {
    let policy = RecoveryPolicy(catalog: .builtIn)
    static let languages = ["en", "zh-Hans", "ko"]

    /// One error of each category, and the title and message its alert must read in English,
    /// Simplified Chinese and Korean.
    static let pairs: [(StudyGroupError, RecoveryCategory, [String: (title: String, message: String)])] = [
        (
            .client(ClientFailure(.signedOut)), .unauthorized,
            [
                "en": ("Sign In Required", "You're signed out. Please sign in to continue."),
                "zh-Hans": ("需要登录", "你已退出登录，请登录后继续。"),
                "ko": ("로그인 필요", "로그아웃되었습니다. 계속하려면 로그인해 주세요."),
            ]
        ),
        (
            .client(ClientFailure(.tokenRefreshFailed)), .unauthorized,
            [
                "en": ("Sign In Required", "Your session has expired. Please sign in again."),
                "zh-Hans": ("需要登录", "登录已过期，请重新登录。"),
                "ko": ("로그인 필요", "세션이 만료되었습니다. 다시 로그인해 주세요."),
            ]
        ),
        (
            .transport(TransportFailure(.offline)), .offline,
            [
                "en": ("You're Offline", "You're offline. Check your internet connection and try again."),
                "zh-Hans": ("网络未连接", "网络未连接，请检查网络后重试。"),
                "ko": ("오프라인", "오프라인 상태입니다. 인터넷 연결을 확인한 후 다시 시도해 주세요."),
            ]
        ),
        (
            .http(HTTPFailure(status: .gatewayTimeout)), .timedOut,
            [
                "en": ("Request Timed Out", "The server took too long to respond. Please try again."),
                "zh-Hans": ("请求超时", "服务器响应超时，请重试。"),
                "ko": ("요청 시간 초과", "서버 응답 시간이 초과되었습니다. 다시 시도해 주세요."),
            ]
        ),
        (
            .http(HTTPFailure(status: .init(code: 451))), .forbidden,
            [
                "en": ("Access Denied", "You don't have permission to do that."),
                "zh-Hans": ("无权访问", "你没有执行此操作的权限。"),
                "ko": ("접근 권한 없음", "이 작업을 수행할 권한이 없습니다."),
            ]
        ),
        (
            .http(HTTPFailure(status: .init(code: 410))), .notFound,
            [
                "en": ("Not Found", "What you're looking for couldn't be found."),
                "zh-Hans": ("未找到内容", "找不到你要的内容。"),
                "ko": ("찾을 수 없음", "찾으시는 내용을 찾을 수 없습니다."),
            ]
        ),
        (
            .server(.module(.classNotFound, message: nil)), .rejectedInput,
            [
                "en": ("Couldn't Complete Request", "The request couldn't be completed."),
                "zh-Hans": ("无法完成请求", "请求无法完成。"),
                "ko": ("요청을 완료할 수 없음", "요청을 완료할 수 없습니다."),
            ]
        ),
        (
            .client(ClientFailure(.tooManyCalls)), .rateLimited,
            [
                "en": ("Too Many Requests", "Too much is going on at once. Please try again in a moment."),
                "zh-Hans": ("请求过于频繁", "同时进行的请求过多，请稍后重试。"),
                "ko": ("요청 횟수 초과", "동시에 처리 중인 요청이 너무 많습니다. 잠시 후 다시 시도해 주세요."),
            ]
        ),
        (
            .server(.general(.maintenance, message: nil)), .unavailable,
            [
                "en": ("Service Unavailable", "The service is under maintenance. Please try again later."),
                "zh-Hans": ("服务暂不可用", "服务正在维护，请稍后重试。"),
                "ko": ("서비스 이용 불가", "서비스 점검 중입니다. 잠시 후 다시 시도해 주세요."),
            ]
        ),
        (
            .http(HTTPFailure(status: .badGateway)), .serverFailure,
            [
                "en": ("Server Error", "The server is having trouble. Please try again later."),
                "zh-Hans": ("服务器错误", "服务器出现问题，请稍后重试。"),
                "ko": ("서버 오류", "서버에 문제가 있습니다. 잠시 후 다시 시도해 주세요."),
            ]
        ),
        (
            .decoding(DecodingFailure(.code, at: "$.code", .missing, excerpt: "<html>")), .unreadableResponse,
            [
                "en": ("Unexpected Response", "The server sent a response the app couldn't read. Please try again later."),
                "zh-Hans": ("无法识别的响应", "服务器返回的数据无法识别，请稍后重试。"),
                "ko": ("응답 오류", "서버 응답을 읽을 수 없습니다. 잠시 후 다시 시도해 주세요."),
            ]
        ),
        (
            .transport(TransportFailure(.tlsFailure)), .unknown,
            [
                "en": ("Something Went Wrong", "A secure connection to the server couldn't be made."),
                "zh-Hans": ("出错了", "无法与服务器建立安全连接。"),
                "ko": ("오류 발생", "서버와 보안 연결을 설정할 수 없습니다."),
            ]
        ),
    ]

    @Test("one error of each category, its title and message in English, Simplified Chinese and Korean")
    func pairsInEachLanguage() throws {
        #expect(
            Set(Self.pairs.map(\.1)) == Set(RecoveryCategory.allCases).subtracting([.cancelled]),
            "every category shown to a user has a pair here")
        for (error, category, words) in Self.pairs {
            for language in Self.languages {
                let alert = try #require(policy.alert(for: error, locale: Locale(identifier: language)))
                let expected = try #require(words[language])
                #expect(alert.category == category, "\(error)")
                #expect(alert.title == expected.title, "\(language) \(error)")
                #expect(alert.message == expected.message, "\(language) \(error)")
            }
        }
    }

    /// For each category, the catalog keys whose text goes with its title: the category's own
    /// `category.<name>`, and the roles', statuses' and reasons' that say the same more precisely.
    static let messagesOfCategory: [RecoveryCategory: [String]] = [
        .offline: [
            "category.offline", "transport.offline", "transport.cannotFindHost", "transport.connectionLost", "client.noNetwork",
        ],
        .timedOut: ["category.timedOut", "transport.timedOut"],
        .unauthorized: [
            "category.unauthorized", "http.401", "role.tokenExpired", "role.signInRequired", "client.tokenRefreshFailed",
            "client.tooManyRefreshes", "client.signedOut",
        ],
        .forbidden: ["category.forbidden", "http.403"],
        .notFound: ["category.notFound", "http.404"],
        .rejectedInput: ["category.rejectedInput", "http.4xx", "client.invalidInput"],
        .rateLimited: ["category.rateLimited", "http.429", "role.rateLimited", "client.tooManyCalls"],
        .unavailable: [
            "category.unavailable", "http.503", "role.maintenance", "transport.cannotConnectToHost", "client.circuitOpen",
        ],
        .serverFailure: ["category.serverFailure", "http.5xx"],
        .unreadableResponse: ["category.unreadableResponse", "decoding"],
        .unknown: ["transport.tlsFailure", "transport", "http", "client"],
    ]

    /// Every way Backstop reaches a category: each transport reason, each status from 100 to
    /// 599, each of Backstop's client reasons, each role, a decoding failure and a business
    /// code without a role or a message.
    static var everyError: [StudyGroupError] {
        var errors: [StudyGroupError] = TransportFailure.Reason.allCases.map { .transport(TransportFailure($0)) }
        errors += (100...599).map { .http(HTTPFailure(status: .init(code: $0))) }
        errors += [
            ClientFailure.Reason.invalidInput, .noNetwork, .invalidURL, .unencodableBody, .responseTooLarge,
            .tokenRefreshFailed, .tooManyRefreshes, .signedOut, .circuitOpen, .tooManyCalls,
        ].map { .client(ClientFailure($0)) }
        errors += [AppCode.tokenExpired, .signInRequired, .maintenance, .rateLimited].map {
            .server(.general($0, message: nil))
        }
        errors += [
            .decoding(DecodingFailure(.payload, at: "$.data.id", .wrongType, excerpt: "\"x\"")),
            .server(.unknown(11140003, message: nil)),
        ]
        return errors
    }

    @Test("every error's message goes with its alert's title, in each language, translated")
    func everyErrorInEachLanguage() throws {
        for error in Self.everyError {
            guard let english = policy.alert(for: error, locale: Locale(identifier: "en")) else {
                #expect(error.recoveryCategory == .cancelled, "\(error)")
                continue
            }
            let keys = try #require(Self.messagesOfCategory[english.category])
            for language in Self.languages {
                let alert = try #require(policy.alert(for: error, locale: Locale(identifier: language)))
                let allowed = keys.compactMap { MessageCatalog.builtIn.message(for: $0, locale: Locale(identifier: language)) }
                #expect(allowed.count == keys.count, "\(language): every key of \(english.category) is in the catalog")
                #expect(allowed.contains(alert.message), "\(language) \(english.category) \(error): \(alert.message)")
                if language != "en" { #expect(alert.message != english.message, "\(language) \(error) is translated") }
            }
        }
    }

    @Test("an app's category override brings the category's message, with its title")
    func overriddenCategory() throws {
        let cartEmpty = ClientFailure.Reason("cartEmpty", code: 9001)
        let policy = RecoveryPolicy(catalog: .builtIn, overrides: [.client(cartEmpty): RecoveryOverride(category: .unauthorized)])
        let alert = try #require(policy.alert(for: StudyGroupError.client(ClientFailure(cartEmpty)), locale: Locale(identifier: "ko")))
        #expect(alert.title == "로그인 필요")
        #expect(alert.message == "계속하려면 로그인해 주세요.")
    }

    @Test("without the resources, the English compiled into Backstop goes together too")
    func withoutResources() throws {
        let bare = RecoveryPolicy(catalog: MessageCatalog())
        let alert = try #require(bare.alert(for: StudyGroupError.client(ClientFailure(.signedOut)), locale: Locale(identifier: "en")))
        #expect(alert.title == "Sign In Required")
        #expect(alert.message == "Please sign in to continue.")
    }
}
