extension StubTransport {
    /// The requests received, once there are at least `count` of them.
    ///
    /// Waits on events, not on a clock a test moves: use it before advancing a `TestClock`, so a
    /// delayed response's request has arrived. `within` is wall-clock time, a bound for a test
    /// whose app never sends the requests, not a pace.
    ///
    /// - Parameters:
    ///   - count: How many requests to wait for.
    ///   - timeout: How long to wait at most, on the continuous clock.
    /// - Returns: All the requests received, at least `count`.
    /// - Throws: ``Unexpected`` when fewer arrived within `timeout` or the waiting task was
    ///   cancelled; it says how many did.
    public func requests(atLeast count: Int, within timeout: Duration = .seconds(30)) async throws(Unexpected) -> [ReceivedRequest] {
        let arrived = await withTaskGroup(of: [ReceivedRequest]?.self) { group in
            group.addTask { await self.arrival(of: count) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let arrived else {
            throw Unexpected(description: "\(requests.count) of \(count) requests arrived within \(timeout)")
        }
        return arrived
    }

    /// The requests once `count` arrived; `nil` when the task is cancelled first.
    private func arrival(of count: Int) async -> [ReceivedRequest]? {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            state.pending.insert(state.nextWaiter)
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if state.cancelled.remove(id) != nil {
                        state.pending.remove(id)
                        continuation.resume(returning: nil)
                    } else if state.received.count >= count {
                        state.pending.remove(id)
                        continuation.resume(returning: state.received)
                    } else {
                        state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                    state.pending.remove(id)
                    state.waiters.remove(at: index).continuation.resume(returning: nil)
                } else if state.pending.contains(id) {
                    state.cancelled.insert(id)
                }
            }
        }
    }
}
