extension ThrowingTaskGroup {
    /// Adds a child that starts on this thread and runs here until it first suspends, where the
    /// compiler (Swift 6.2) and the OS (26) allow it; enqueued like any child otherwise.
    ///
    /// No thread is woken to begin the work, and work that ends without suspending ends here,
    /// as it would without a task group around it.
    mutating func addTaskStartingHere(operation: @escaping @Sendable () async throws -> ChildTaskResult) {
        #if compiler(>=6.2)
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                addImmediateTask(operation: operation)
            } else {
                addTask(operation: operation)
            }
        #else
            addTask(operation: operation)
        #endif
    }
}
