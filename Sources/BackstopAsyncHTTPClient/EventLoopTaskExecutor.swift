#if AsyncHTTPClient
    import NIOCore
    import NIOPosix
#else
    #error("BackstopAsyncHTTPClient needs Backstop's AsyncHTTPClient trait: .package(name: \"Backstop\", …, traits: [\"AsyncHTTPClient\"])")
#endif

/// A task executor that runs each job on the SwiftNIO event loop whose thread enqueued it, and
/// any other job on the global executor: a call's attempt task, woken by AsyncHTTPClient's
/// answer on an event loop, goes on running there instead of moving to another thread.
///
/// Only the tasks ``HTTPClientTransport`` asks the pipeline to start for a call's attempts
/// prefer it; the caller's task stays on the global executor. The jobs are queued behind the
/// loop's own work, never run inside the code that enqueued them. What runs on the loop is the
/// pipeline's own work between two network reads; an answer larger than 64 KiB is parsed on the
/// global executor. The app's middlewares run there too, so they must not block, as on any
/// executor of Swift concurrency.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
package final class EventLoopTaskExecutor: TaskExecutor {
    /// One for the process: it keeps no state.
    package static let shared = EventLoopTaskExecutor()

    package func enqueue(_ job: consuming ExecutorJob) {
        guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else {
            globalConcurrentExecutor.enqueue(job)
            return
        }
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
