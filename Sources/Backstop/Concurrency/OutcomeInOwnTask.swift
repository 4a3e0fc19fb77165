/// `operation`'s outcome, worked out in a task of its own that starts on this thread and wakes
/// where `placement` says, so that something other than the caller can cancel it: `started` is
/// handed that task before the caller waits for it (a deadline's timer takes it), and what it
/// answers comes back beside the outcome.
///
/// Cancelling the caller cancels the task, and a caller already cancelled starts it cancelled,
/// as a child would be; it is not a child, so the caller's own task is never cancelled. Returns
/// only once the task has ended, so nothing it started outlives the caller's wait.
func outcomeInOwnTask<Value: Sendable, Started>(
    on placement: TaskPlacement,
    _ operation: @escaping @Sendable () async throws -> Value,
    started: (Task<Result<Value, any Error>, Never>) -> Started
) async -> (outcome: Result<Value, any Error>, started: Started) {
    let callerIsCancelled = Task.isCancelled
    let task = Task<Result<Value, any Error>, Never>.startingHere(on: placement) {
        if callerIsCancelled { withUnsafeCurrentTask { $0?.cancel() } }
        do {
            return .success(try await operation())
        } catch {
            return .failure(error)
        }
    }
    let handedOver = started(task)
    let outcome = await withTaskCancellationHandler {
        await task.value
    } onCancel: {
        task.cancel()
    }
    return (outcome, handedOver)
}
