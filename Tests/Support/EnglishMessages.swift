import Backstop
import Foundation
import Testing

/// Pins the locale of Backstop's messages to English for a suite, as an app with a language
/// setting of its own pins it, so texts compared with English read the same on every machine.
///
/// On Apple platforms `localizedDescription` and alerts follow the user's preferred languages,
/// which differ between machines. The pin is never undone: suites run in parallel, and every
/// suite that pins it pins the same locale.
public struct EnglishMessages: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        MessageCatalog.locale = Locale(identifier: "en")
        try await function()
    }
}

extension Trait where Self == EnglishMessages {
    /// Backstop's messages in English, whatever the machine's preferred languages.
    public static var englishMessages: Self { EnglishMessages() }
}
