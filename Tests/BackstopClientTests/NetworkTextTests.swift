import Backstop
import BackstopJSON
import BackstopTestSupport
import BadBackend
import Foundation
import InMemoryLogging
import Logging
import Testing

extension BackstopClient {
    /// A server's message full of terminal escapes, a bell, a right-to-left override and a
    /// forged log line, through each place Backstop writes text: none of those characters comes
    /// out, engineers' copies give back what was received, users' copies keep the rest unchanged.
    @Suite("Text from the network", .englishMessages)
    struct NetworkTextTests {
        static func unsafe(_ text: String, allowingLineFeed: Bool = false) -> [Unicode.Scalar] {
            text.unicodeScalars.filter { UntrustedText.isUnsafe($0) && !(allowingLineFeed && $0 == "\n") }
        }

        /// The hostile message's call: its error, and the log line the pipeline wrote of it.
        static func call(
            _ url: URL, _ transport: TransportKind, query: [URLQueryItem] = []
        ) async throws -> (error: APIError<GeneralCode, StudyGroupCode>, line: InMemoryLogHandler.Entry) {
            let logs = InMemoryLogHandler.keepingDebug()
            let client = makeClient(
                url, transport,
                pipeline: quietPipeline {
                    $0.logging = RequestLogging(logger: Logger(label: "text") { _ in logs })
                })
            let error = try #require(
                await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "scenarios/hostile-message/b/products/1", query: query)))
            return (error, try #require(logs.entries.last))
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func forEngineersEverythingIsEscapedAndNothingIsLost(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let (error, line) = try await Self.call(url, transport)
                #expect(error.serverMessage == Scenario.hostileText)
                let texts = [
                    error.description, "\(line.message)", line.metadata["error"].map { "\($0)" } ?? "",
                    error.nsError.userInfo[NSDebugDescriptionErrorKey] as? String ?? "",
                ]
                for text in texts { #expect(Self.unsafe(text).isEmpty, "\(text.debugDescription)") }
                // The message in `userInfo` is the one a user may see: a line break at most.
                let userInfoMessage = try #require(error.nsError.userInfo[StudyGroupError.serverMessageKey] as? String)
                #expect(Self.unsafe(userInfoMessage, allowingLineFeed: true).isEmpty)
                // The description quotes the message escaped: unescaping gives it back whole.
                #expect(UntrustedText.unescaped(error.description).contains(Scenario.hostileText))
                #expect(UntrustedText.unescaped("\(line.message)").contains(Scenario.hostileText))
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func forUsersTheDangerousCharactersAreRemovedAndTheRestKept(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let (error, _) = try await Self.call(url, transport)
                let expected = "[2J]0;pwned okgnp.exe\nfake: line"
                #expect(error.userMessage(locale: Locale(identifier: "en")) == expected)
                #expect(error.localizedDescription == expected)
                let alert = try #require(RecoveryPolicy().alert(for: error, locale: Locale(identifier: "en")))
                #expect(alert.message == expected)
                #expect(Self.unsafe(alert.title).isEmpty)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aMegabyteOfHostileTextStaysSafeEverywhere(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let (error, line) = try await Self.call(url, transport, query: [URLQueryItem(name: "repeat", value: "30000")])
                #expect((error.serverMessage?.utf8.count ?? 0) > 1 << 20)
                #expect(Self.unsafe(error.description).isEmpty)
                #expect(Self.unsafe("\(line.message)").isEmpty)
                // One short line, however long the message.
                #expect(error.description.count < 400)
                #expect(Self.unsafe(error.userMessage(locale: Locale(identifier: "en")), allowingLineFeed: true).isEmpty)
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func rightToLeftAndCJKMessagesAreShownUnchanged(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let message = "مرحبا، שלום، 班级不存在 👨‍👩‍👧"
                let (error, line) = try await Self.call(url, transport, query: [URLQueryItem(name: "message", value: message)])
                #expect(error.userMessage(locale: Locale(identifier: "en")) == message)
                #expect(RecoveryPolicy().alert(for: error, locale: Locale(identifier: "en"))?.message == message)
                #expect(error.description.contains(message))
                #expect("\(line.message)".contains(message))
            }
        }

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func aPathWithControlCharactersIsEscapedInTheLog(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let logs = InMemoryLogHandler.keepingDebug()
                let client = makeClient(
                    url, transport,
                    pipeline: quietPipeline {
                        $0.logging = RequestLogging(logger: Logger(label: "text") { _ in logs })
                    })
                _ = await failure(of: client, Endpoint<Item, StudyGroupCode>(.get, "b/products/1", operationID: "get\u{1B}[2J\u{202E}item"))
                let line = try #require(logs.entries.last)
                #expect(line.metadata["operation"].map { "\($0)" } == #"get\u{1B}[2J\u{202E}item"#)
                #expect(Self.unsafe("\(line.message)").isEmpty)
            }
        }
    }
}
