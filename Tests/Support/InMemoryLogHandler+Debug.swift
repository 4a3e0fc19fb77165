import InMemoryLogging

extension InMemoryLogHandler {
    /// A handler that keeps `debug` lines and above: the level at which `RequestLogging` writes
    /// a call's line unless told otherwise, as an engineer who turned them on reads them.
    public static func keepingDebug() -> InMemoryLogHandler {
        var handler = InMemoryLogHandler()
        handler.logLevel = .debug
        return handler
    }
}
