/// Where the tasks a call starts for its attempts run once they wake: on the global executor,
/// or on an executor the transport names (see ``TaskPlacing``).
///
/// A hedge, and an attempt that its transport cannot end from outside (behind a middleware, or
/// waiting on authentication) of a hedged call or of a call with a total timeout (see
/// ``CallDeadline``), runs in a task of its own, so that the winning hedge or the deadline can
/// cancel it without cancelling the caller. An
/// answer then wakes two tasks, the attempt's and the caller's, and each wake-up on the global
/// executor can move the work to another thread. A transport whose answers arrive on threads
/// of its own (SwiftNIO's event loops) saves that move when the attempt's task goes on running
/// on the thread that woke it; only the caller's task then changes threads, as it does when it
/// sends without a pipeline.
package struct TaskPlacement: Sendable {
    /// An `any TaskExecutor`, kept as `any Sendable`: that type is newer than the oldest
    /// systems Backstop runs on.
    private let executor: (any Sendable)?

    /// Every task on the global executor.
    package static let global = TaskPlacement(executor: nil)

    private init(executor: (any Sendable)?) {
        self.executor = executor
    }

    /// Attempt tasks that prefer `executor`.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    package init(preferring executor: any TaskExecutor) {
        self.executor = executor
    }

    /// Answers larger than this are parsed on the global executor, not on the transport's
    /// threads: an event loop that parses megabytes of JSON holds up every connection it serves.
    static let largestAnswerParsedInPlace = 64 << 10

    /// Whether attempt tasks run on the transport's executor.
    package var prefersTransportExecutor: Bool { executor != nil }

    /// The executor attempt tasks prefer; `nil` for the global executor.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    var taskExecutor: (any TaskExecutor)? {
        guard let executor else { return nil }
        return executor as? any TaskExecutor
    }

    /// `parse`'s value for an answer of `size` bytes: worked out on the global executor when
    /// attempt tasks prefer the transport's and the answer is larger than
    /// ``largestAnswerParsedInPlace``, so that CPU-bound work leaves the transport's threads;
    /// in place otherwise.
    func parsing<Value: Sendable>(size: Int, _ parse: @escaping @Sendable () -> Value) async -> Value {
        guard prefersTransportExecutor, size > Self.largestAnswerParsedInPlace else { return parse() }
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return await withTaskExecutorPreference(globalConcurrentExecutor) { await Self.run(parse) }
        }
        return parse()
    }

    /// Runs `work` wherever the task's executor preference says: a nonisolated async function
    /// that leaves the thread it was called on when the preference differs.
    @concurrent private static func run<Value: Sendable>(_ work: @Sendable () -> Value) async -> Value {
        work()
    }
}
