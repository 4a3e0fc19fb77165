import Backstop
import BackstopTestSupport
import Foundation
import Testing

@Suite("Recovery alerts in the user's language", .englishMessages)
struct RecoveryLocalizationTests {
    let policy = RecoveryPolicy(catalog: .builtIn)
    let offline = StudyGroupError.transport(TransportFailure(.offline))

    @Test(
        "built-in titles, messages and buttons in English, Simplified Chinese and Korean",
        arguments: [
            ("en-US", "You're Offline", "You're offline. Check your internet connection and try again.", ["Try Again", "Cancel"]),
            ("zh-Hans", "网络未连接", "网络未连接，请检查网络后重试。", ["重试", "取消"]),
            ("zh-CN", "网络未连接", "网络未连接，请检查网络后重试。", ["重试", "取消"]),
            ("ko-KR", "오프라인", "오프라인 상태입니다. 인터넷 연결을 확인한 후 다시 시도해 주세요.", ["다시 시도", "취소"]),
        ])
    func builtIn(language: String, title: String, message: String, buttons: [String]) throws {
        let alert = try #require(policy.alert(for: offline, locale: Locale(identifier: language)))
        #expect(alert.title == title)
        #expect(alert.message == message)
        #expect(alert.actions.map(\.title) == buttons)
    }

    @Test("languages Backstop does not ship fall back to English", arguments: ["zh-Hant-TW", "fr-FR", "ja", ""])
    func englishFallback(language: String) throws {
        let alert = try #require(
            policy.alert(for: StudyGroupError.http(HTTPFailure(status: .unauthorized)), locale: Locale(identifier: language)))
        #expect(alert.title == "Sign In Required")
        #expect(alert.message == "Please sign in to continue.")
        #expect(alert.actions.map(\.title) == ["Sign In", "Cancel"])
    }

    @Test("every alert key is in the three built-in tables, translated")
    func complete() {
        let keys =
            RecoveryCategory.allCases.map { "alert.title.\($0.rawValue)" }
            + ["retry", "signIn", "cancel", "dismiss", "confirm"].map { "alert.action.\($0)" }
            + ["alert.retryAfter.seconds", "alert.retryAfter.minutes"]
        for key in keys {
            let english = MessageCatalog.builtIn.message(for: key, locale: Locale(identifier: "en"))
            #expect(english != nil, "\(key)")
            for language in ["zh-Hans", "ko"] {
                let translated = MessageCatalog.builtIn.message(for: key, locale: Locale(identifier: language))
                #expect(translated != nil && translated != english, "\(language) \(key)")
            }
        }
    }

    @Test(
        "without resources, English compiled into Backstop: never a key", arguments: RecoveryCategory.allCases.filter { $0 != .cancelled })
    func withoutResources(category: RecoveryCategory) throws {
        let bare = RecoveryPolicy(
            catalog: MessageCatalog(),
            overrides: [
                .client(.cartEmpty): RecoveryOverride(
                    category: category, actions: [.retry, .signIn, .cancel, .dismiss, .confirm, .openSettings])
            ])
        let withCatalog = RecoveryPolicy(catalog: .builtIn, overrides: bare.overrides)
        for language in ["en", "zh-Hans", "ko"] {
            let locale = Locale(identifier: language)
            let alert = try #require(bare.alert(for: StudyGroupError.client(ClientFailure(.cartEmpty)), locale: locale))
            let english = try #require(
                withCatalog.alert(for: StudyGroupError.client(ClientFailure(.cartEmpty)), locale: Locale(identifier: "en")))
            #expect(alert.title == english.title)
            #expect(alert.actions.map(\.title) == english.actions.map(\.title))
            #expect(alert.actions.map(\.title) == ["Try Again", "Sign In", "Cancel", "OK", "Confirm", "Open Settings"])
            #expect(!alert.title.contains("alert.") && !alert.message.isEmpty)
        }
    }

    @Test("an app action is titled from the app's catalog, else in English, else by its own title")
    func appActions() throws {
        let catalog = MessageCatalog.builtIn.merging(
            MessageCatalog([
                "en": ["alert.action.openSettings": "Settings"],
                "zh-Hans": ["alert.action.openSettings": "打开设置"],
            ]))
        let overrides: RecoveryOverrides = [.category(.offline): RecoveryOverride(actions: [.retry, .openSettings, .contactSupport])]
        let policy = RecoveryPolicy(catalog: catalog, overrides: overrides)
        let titles = { (language: String) in
            policy.alert(for: offline, locale: Locale(identifier: language))?.actions.map(\.title)
        }
        #expect(titles("zh-Hans") == ["重试", "打开设置", "Contact Support"])
        #expect(titles("ko") == ["다시 시도", "Settings", "Contact Support"])
        #expect(titles("en") == ["Try Again", "Settings", "Contact Support"])
    }

    @Test(
        "rate limited: when to try again, from Retry-After, in each language",
        arguments: [
            ("en", "30", "Too many requests. Please wait a moment and try again.\nYou can try again in 30 seconds."),
            ("zh-Hans", "30", "请求过于频繁，请稍后再试。\n请在 30 秒后重试。"),
            ("ko", "30", "요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.\n30초 후에 다시 시도할 수 있습니다."),
            ("en", "600", "Too many requests. Please wait a moment and try again.\nYou can try again in 10 minutes."),
            ("ko", "121", "요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.\n3분 후에 다시 시도할 수 있습니다."),
            ("en", "2", "Too many requests. Please wait a moment and try again."),
        ])
    func retryAfter(language: String, header: String, message: String) throws {
        let error = StudyGroupError.http(HTTPFailure(status: .tooManyRequests, headerFields: [.retryAfter: header]))
        let alert = try #require(policy.alert(for: error, locale: Locale(identifier: language)))
        #expect(alert.message == message)
        #expect(alert.retryAfter == Int(header).map { .seconds($0) })
    }

    @Test("Retry-After as a date is measured from the response's Date; unreadable values are ignored")
    func retryAfterDate() throws {
        let dated = StudyGroupError.http(
            HTTPFailure(
                status: .tooManyRequests,
                headerFields: [
                    .retryAfter: "Wed, 21 Oct 2015 07:28:45 GMT", .date: "Wed, 21 Oct 2015 07:28:00 GMT",
                ]))
        #expect(policy.alert(for: dated, locale: Locale(identifier: "en"))?.retryAfter == .seconds(45))
        let past = StudyGroupError.http(
            HTTPFailure(
                status: .tooManyRequests,
                headerFields: [
                    .retryAfter: "Wed, 21 Oct 2015 07:27:00 GMT", .date: "Wed, 21 Oct 2015 07:28:00 GMT",
                ]))
        #expect(policy.alert(for: past)?.retryAfter == .zero)
        for value in ["soon", "-5", "+5", "1.5", "", "99999999999999999999999"] {
            let error = StudyGroupError.http(HTTPFailure(status: .tooManyRequests, headerFields: [.retryAfter: value]))
            #expect(policy.alert(for: error)?.retryAfter == nil, "\(value)")
        }
        // A role gives no time, only the role's message.
        let role = try #require(
            policy.alert(for: StudyGroupError.server(.general(.rateLimited, message: nil)), locale: Locale(identifier: "en")))
        #expect(role.category == .rateLimited && role.retryAfter == nil)
        #expect(role.message == "Too many requests. Please wait a moment and try again.")
    }

    @Test("a terminal rendering: title, message, numbered actions with their roles")
    func terminal() throws {
        let policy = RecoveryPolicy(
            catalog: .builtIn, overrides: [.category(.unauthorized): RecoveryOverride(actions: [.signIn, .discardDraft, .cancel])])
        let alert = try #require(
            policy.alert(for: StudyGroupError.http(HTTPFailure(status: .unauthorized)), locale: Locale(identifier: "ko")))
        #expect(
            alert.terminalText == """
                로그인 필요
                계속하려면 로그인해 주세요.
                  1. 로그인
                  2. Discard Draft (destructive)
                  3. 취소 (cancel)
                """)
    }
}
