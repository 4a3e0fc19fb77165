extension Task where Failure == Never {
    /// A task that starts on this thread and runs here until it first suspends, where the
    /// compiler (Swift 6.2) and the OS (26) allow it; enqueued like any task otherwise.
    ///
    /// Like ``Task/init(priority:operation:)``, it is not a child: it inherits the caller's
    /// priority and task-local values, not its cancellation.
    static func startingHere(operation: @escaping @Sendable () async -> Success) -> Task {
        #if compiler(>=6.2)
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                return Task.immediate(operation: operation)
            }
        #endif
        return Task(operation: operation)
    }
}
