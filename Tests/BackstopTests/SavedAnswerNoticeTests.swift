import Backstop
import BackstopTestSupport
import Foundation
import Testing

/// The notice a screen shows over a saved answer, instead of an alert, in each built-in language.
@Suite("The saved-answer notice", .englishMessages)
struct SavedAnswerNoticeTests {
    let policy = RecoveryPolicy(catalog: .builtIn)
    let utc = TimeZone(identifier: "UTC") ?? .current
    /// 2026-11-29 10:42:07 UTC.
    let savedAt = Date(timeIntervalSince1970: 1_795_948_927)

    @Test(
        "saved today: the time alone",
        arguments: [
            ("en-US", "Showing what was saved at 10:42."),
            ("zh-Hans", "正在显示 10:42 保存的内容。"),
            ("ko-KR", "10:42에 저장된 내용을 표시하고 있습니다."),
        ])
    func today(language: String, message: String) {
        let use = SavedAnswerUse(savedAt: savedAt, age: .seconds(600), failure: TransportFailure(.offline))
        let notice = policy.notice(for: use, locale: Locale(identifier: language), timeZone: utc, now: savedAt + 600)
        #expect(notice.message == message)
        #expect(notice.savedAt == savedAt)
    }

    @Test(
        "saved on an earlier day: the date and the time",
        arguments: [
            ("en-US", "Showing what was saved on 2026-11-29 at 10:42."),
            ("zh-Hans", "正在显示 2026-11-29 10:42 保存的内容。"),
            ("ko-KR", "2026-11-29 10:42에 저장된 내용을 표시하고 있습니다."),
        ])
    func earlierDay(language: String, message: String) {
        let use = SavedAnswerUse(savedAt: savedAt, age: .seconds(86_400), failure: nil)
        let notice = policy.notice(for: use, locale: Locale(identifier: language), timeZone: utc, now: savedAt + 86_400)
        #expect(notice.message == message)
    }

    @Test func theTimeIsReadInTheGivenTimeZone() throws {
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        let use = SavedAnswerUse(savedAt: savedAt, age: .zero, failure: nil)
        #expect(
            policy.notice(for: use, locale: Locale(identifier: "en"), timeZone: seoul, now: savedAt).message
                == "Showing what was saved at 19:42.")
    }

    @Test func withoutResourcesTheEnglishCompiledIntoBackstop() {
        let use = SavedAnswerUse(savedAt: savedAt, age: .zero, failure: nil)
        let bare = RecoveryPolicy(catalog: MessageCatalog())
        #expect(
            bare.notice(for: use, locale: Locale(identifier: "ko"), timeZone: utc, now: savedAt).message
                == "Showing what was saved at 10:42.")
    }

    @Test func everyNoticeKeyIsTranslated() {
        for key in ["notice.savedAnswer.time", "notice.savedAnswer.date"] {
            let english = MessageCatalog.builtIn.message(for: key, locale: Locale(identifier: "en"))
            #expect(english != nil, "\(key)")
            for language in ["zh-Hans", "ko"] {
                let translated = MessageCatalog.builtIn.message(for: key, locale: Locale(identifier: language))
                #expect(translated != nil && translated != english, "\(language) \(key)")
            }
        }
    }
}
