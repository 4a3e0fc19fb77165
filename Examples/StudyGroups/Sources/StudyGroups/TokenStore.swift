import Foundation

/// Where the app keeps its tokens: the Keychain in an app, memory here.
public final class TokenStore: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Tokens?

    public init(_ tokens: Tokens? = nil) {
        stored = tokens
    }

    public var tokens: Tokens? { lock.withLock { stored } }

    public func save(_ tokens: Tokens?) { lock.withLock { stored = tokens } }
}
