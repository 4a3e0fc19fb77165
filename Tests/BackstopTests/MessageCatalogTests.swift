import Backstop
import BackstopTestSupport
import Foundation
import Testing

@Suite("User messages from catalogs", .englishMessages)
struct MessageCatalogTests {
    let offline = StudyGroupError.transport(TransportFailure(.offline))
    let english = Locale(identifier: "en_US")

    @Test(
        "built-in messages in English, Simplified Chinese and Korean",
        arguments: [
            ("en", "You're offline. Check your internet connection and try again."),
            ("zh-Hans", "网络未连接，请检查网络后重试。"),
            ("zh-CN", "网络未连接，请检查网络后重试。"),
            ("zh_Hans_SG", "网络未连接，请检查网络后重试。"),
            ("ko-KR", "오프라인 상태입니다. 인터넷 연결을 확인한 후 다시 시도해 주세요."),
            ("ko", "오프라인 상태입니다. 인터넷 연결을 확인한 후 다시 시도해 주세요."),
        ])
    func builtIn(language: String, message: String) {
        #expect(offline.userMessage(locale: Locale(identifier: language), catalog: .builtIn) == message)
    }

    @Test("missing translations fall back to English", arguments: ["zh-Hant-TW", "zh-TW", "fr-FR", "ja", "und", ""])
    func englishFallback(language: String) {
        #expect(
            offline.userMessage(locale: Locale(identifier: language), catalog: .builtIn)
                == "You're offline. Check your internet connection and try again.")
    }

    @Test("every built-in key is translated, so only unknown languages fall back")
    func builtInComplete() {
        let keys =
            ["transport", "http", "decoding", "server", "client", "role.tokenExpired", "reason.server", "recovery.transport"]
            + TransportFailure.Reason.allCases.filter { $0 != .other }.map { "transport.\($0.rawValue)" }
            + ServerCodeRole.allCases.map { "role.\($0.rawValue)" }
        for language in ["zh-Hans", "ko"] {
            for key in keys {
                let translated = MessageCatalog.builtIn.message(for: key, locale: Locale(identifier: language))
                let english = MessageCatalog.builtIn.message(for: key, locale: english)
                #expect(translated != nil && english != nil && translated != english, "\(language) \(key)")
            }
        }
    }

    @Test(
        "the layer's message, or the recovery category's, for everything the catalog does not name",
        arguments: [
            (StudyGroupError.http(HTTPFailure(status: .badRequest)), "The request couldn't be completed."),
            // A gateway timeout is `timedOut`: the message goes with "Request Timed Out".
            (.http(HTTPFailure(status: .gatewayTimeout)), "The server took too long to respond. Please try again."),
            (.http(HTTPFailure(status: .gone)), "What you're looking for couldn't be found."),
            (.http(HTTPFailure(status: .notFound)), "What you're looking for couldn't be found."),
            (.http(HTTPFailure(status: .multipleChoices)), "The server couldn't complete the request. Please try again."),
            // A code without a role or a message is `rejectedInput`: "Couldn't Complete Request".
            (.server(.module(.wrongTeamCode, message: nil)), "The request couldn't be completed."),
            (.client(ClientFailure(.signedOut)), "You're signed out. Please sign in to continue."),
            (.server(.general(.tokenExpired, message: nil)), "Your session has expired. Please sign in again."),
            (
                .decoding(DecodingFailure(.body, at: "$", .emptyBody, excerpt: "")),
                "The server sent a response the app couldn't read. Please try again later."
            ),
            (.client(ClientFailure(.invalidInput)), "Please check what you entered and try again."),
            (.client(ClientFailure(.init("cartEmpty", code: 9))), "Something went wrong. Please try again."),
            (.transport(TransportFailure(.other)), "Couldn't reach the server. Please try again."),
        ])
    func layerMessages(error: StudyGroupError, message: String) {
        #expect(error.userMessage(locale: english, catalog: .builtIn) == message)
    }

    @Test("the app's entry in the user's language, else the server's message, else the app's English entry")
    func precedence() {
        let app = MessageCatalog.builtIn.merging(
            MessageCatalog([
                "en": ["server.11210005": "That team code doesn't exist."],
                "ko": ["server.11210005": "팀 코드가 올바르지 않습니다."],
            ]))
        let withMessage = StudyGroupError.server(.module(.wrongTeamCode, message: "Wrong team code (server)"))
        #expect(withMessage.userMessage(locale: Locale(identifier: "ko"), catalog: app) == "팀 코드가 올바르지 않습니다.")
        #expect(withMessage.userMessage(locale: english, catalog: app) == "That team code doesn't exist.")
        #expect(withMessage.userMessage(locale: Locale(identifier: "zh-Hans"), catalog: app) == "Wrong team code (server)")

        let withoutMessage = StudyGroupError.server(.module(.wrongTeamCode, message: "  "))
        #expect(withoutMessage.userMessage(locale: Locale(identifier: "zh-Hans"), catalog: app) == "That team code doesn't exist.")

        let unknown = StudyGroupError.server(.unknown(777, message: nil))
        #expect(unknown.userMessage(locale: Locale(identifier: "zh-Hans"), catalog: app) == "请求无法完成。")
    }

    @Test("the server's message beats the built-in texts for roles and statuses")
    func serverMessageBeatsBuiltIn() {
        let http = StudyGroupError.http(HTTPFailure(status: .serviceUnavailable, code: 10503, message: "Back at 3am"))
        #expect(http.userMessage(locale: english, catalog: .builtIn) == "Back at 3am")
        let role = StudyGroupError.server(.general(.maintenance, message: nil))
        #expect(role.userMessage(locale: english, catalog: .builtIn) == "The service is under maintenance. Please try again later.")
    }

    @Test("apps override built-in entries")
    func override() {
        let app = MessageCatalog.builtIn.merging(MessageCatalog(["en": ["transport.offline": "No connection."]]))
        #expect(offline.userMessage(locale: english, catalog: app) == "No connection.")
        #expect(
            offline.userMessage(locale: Locale(identifier: "ko"), catalog: app)
                == "오프라인 상태입니다. 인터넷 연결을 확인한 후 다시 시도해 주세요.")
    }

    @Test("app catalogs can be files")
    func files() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("backstop-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"server.11210006": "Class not found."}"#.utf8).write(to: directory.appendingPathComponent("en.json"))
        try Data(#"{"server.11210006": "找不到班级。"}"#.utf8).write(to: directory.appendingPathComponent("zh-Hans.json"))
        try Data("not a catalog".utf8).write(to: directory.appendingPathComponent("README.txt"))

        let app = MessageCatalog.builtIn.merging(try MessageCatalog(contentsOf: directory))
        let error = StudyGroupError.server(.module(.classNotFound, message: "class not found"))
        #expect(error.userMessage(locale: Locale(identifier: "zh-CN"), catalog: app) == "找不到班级。")
        #expect(error.userMessage(locale: english, catalog: app) == "Class not found.")
        #expect(error.userMessage(locale: Locale(identifier: "ko"), catalog: app) == "class not found")

        try Data("[1]".utf8).write(to: directory.appendingPathComponent("ko.json"))
        #expect(throws: DecodingError.self) { try MessageCatalog(contentsOf: directory) }
    }

    @Test("never a key, even with an empty catalog", arguments: StudyGroupError.Layer.allCases)
    func neverAKey(layer: StudyGroupError.Layer) {
        let error: StudyGroupError =
            switch layer {
            case .transport: .transport(TransportFailure(.timedOut))
            case .http: .http(HTTPFailure(status: .internalServerError))
            case .decoding: .decoding(DecodingFailure(.payload, at: "$.data", .missing, excerpt: ""))
            case .server: .server(.unknown(5, message: nil))
            case .client: .client(ClientFailure(.noNetwork))
            }
        let message = error.userMessage(locale: Locale(identifier: "ko"), catalog: MessageCatalog())
        #expect(!message.isEmpty)
        // Keys have no spaces; every message has.
        #expect(message.contains(" "), "looks like a key: \(message)")
    }

    @Test("the pinned locale is the one LocalizedError and NSError use")
    func pinnedLocale() {
        // The suite pins English, as an app with its own language setting would.
        #expect(MessageCatalog.locale == Locale(identifier: "en"))
        let error = StudyGroupError.transport(TransportFailure(.offline))
        #expect(error.localizedDescription == error.userMessage(locale: Locale(identifier: "en")))
        #expect(error.localizedDescription != error.userMessage(locale: Locale(identifier: "ko")))
    }

    @Test("the standard catalog is what LocalizedError uses, and apps install their own")
    func standard() {
        // A code no other test uses, so tests running in parallel see no difference.
        let error = StudyGroupError.server(.unknown(424242, message: nil))
        #expect(error.localizedDescription == "The request couldn't be completed.")
        let previous = MessageCatalog.standard
        MessageCatalog.standard = previous.merging(MessageCatalog(["en": ["server.424242": "Installed."]]))
        defer { MessageCatalog.standard = previous }
        #expect(error.localizedDescription == "Installed.")
        #expect((error as NSError).localizedDescription == "Installed.")
    }
}
