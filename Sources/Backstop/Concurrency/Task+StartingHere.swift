extension Task where Failure == Never {
    /// A task that starts on this thread and runs here until it first suspends, where the
    /// compiler (Swift 6.2) and the OS (26) allow it; enqueued like any task otherwise. Once it
    /// suspends, it wakes where `placement` says.
    ///
    /// Like ``Task/init(priority:operation:)``, it is not a child: it inherits the caller's
    /// priority and task-local values, not its cancellation.
    static func startingHere(on placement: TaskPlacement, operation: @escaping @Sendable () async -> Success) -> Task {
        #if compiler(>=6.2)
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                guard let executor = placement.taskExecutor else { return Task.immediate(operation: operation) }
                return Task.immediate(executorPreference: executor, operation: operation)
            }
        #endif
        return enqueued(on: placement, operation: operation)
    }

    /// A task enqueued like ``Task/init(priority:operation:)``, which runs where `placement`
    /// says.
    static func enqueued(on placement: TaskPlacement, operation: @escaping @Sendable () async -> Success) -> Task {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let executor = placement.taskExecutor {
            return Task(executorPreference: executor, operation: operation)
        }
        return Task(operation: operation)
    }
}
