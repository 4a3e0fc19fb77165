import Dispatch

/// Deadlines on the system's clocks for many calls at once: every pending deadline, kept in
/// order, behind one Dispatch timer set for the earliest. The hedges of one ``Hedging`` share
/// one (``Hedging/timers``); every call's timeouts share ``timeouts``.
///
/// A call that ends before its deadline takes it out again, so deadlines pile up only for calls
/// still waiting. A Dispatch timer per call cost each call several microseconds, cancelled or
/// not, and timers left to fire after their call ended slowed every later one: tens of thousands
/// were pending at a 60-second hedging delay, as `Task.sleep` leaves them for a 30-second timeout.
final class DeadlineTimers: Sendable {
    /// One pending deadline; it knows its place in the queue, so taking it out costs no search.
    final class Ticket: @unchecked Sendable {
        /// Its place in the queue, -1 once out of it; guarded by the owning `DeadlineTimers`' lock.
        fileprivate var index: Int
        fileprivate let deadline: UInt64
        fileprivate let target: any DeadlineTarget

        fileprivate init(deadline: UInt64, index: Int, target: any DeadlineTarget) {
            self.deadline = deadline
            self.index = index
            self.target = target
        }
    }

    /// The total and attempt timeouts of every call on the system's clocks, in this process.
    static let timeouts = DeadlineTimers()

    private struct Queue: @unchecked Sendable {
        /// A binary min-heap on the tickets' deadlines; each ticket's `index` is its place here.
        var heap: [Ticket] = []
        /// The deadline the Dispatch timer is set for; `UInt64.max` when it is idle.
        var armed = UInt64.max
        /// Made and started with the first deadline, so a `Hedging` whose calls never run on the
        /// system's clocks (tests') never makes one. Set only under the lock, like the rest.
        var timer: (any DispatchSourceTimer)?
    }

    private let queue = LockedValue(Queue())

    deinit {
        queue.withLock { $0.timer?.cancel() }
    }

    /// Tells `target` at `deadline` (uptime nanoseconds, as `DispatchTime`) that it passed,
    /// unless the returned ticket is cancelled first.
    func schedule(_ target: any DeadlineTarget, at deadline: UInt64) -> Ticket {
        queue.withLock { pending in
            let ticket = Ticket(deadline: deadline, index: pending.heap.count, target: target)
            pending.heap.append(ticket)
            Self.siftUp(&pending.heap, from: ticket.index)
            // A timer set for an earlier deadline wakes up in time and sets itself for the next.
            // Set under the lock, so that two calls setting it at once leave it at the earlier.
            if deadline < pending.armed {
                pending.armed = deadline
                Self.timer(&pending, of: queue).schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(1))
            }
            return ticket
        }
    }

    /// Takes `ticket` out, if it has not fired yet: whether it had not (else its deadline passed,
    /// and its target has been told or is being told).
    @discardableResult
    func cancel(_ ticket: Ticket) -> Bool {
        queue.withLock { queue in
            guard ticket.index >= 0 else { return false }
            Self.remove(at: ticket.index, from: &queue.heap)
            return true
        }
        // The timer stays set: waking up to nothing due is cheaper than setting it again per call.
    }

    /// Fires every ticket of `queue` that is due and sets the timer for the next.
    private static func fireDue(_ queue: LockedValue<Queue>) {
        let now = DispatchTime.now().uptimeNanoseconds
        let due: [Ticket] = queue.withLock { pending in
            var due: [Ticket] = []
            while let first = pending.heap.first, first.deadline <= now {
                Self.remove(at: 0, from: &pending.heap)
                due.append(first)
            }
            pending.armed = pending.heap.first?.deadline ?? .max
            if let next = pending.heap.first?.deadline {
                timer(&pending, of: queue).schedule(deadline: DispatchTime(uptimeNanoseconds: next), leeway: .milliseconds(1))
            }
            return due
        }
        for ticket in due { ticket.target.deadlinePassed() }
    }

    /// The Dispatch timer of `queue`, made on first use; `locked` is `queue` behind its lock.
    private static func timer(_ queue: inout Queue, of locked: LockedValue<Queue>) -> any DispatchSourceTimer {
        if let timer = queue.timer { return timer }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        // The queue, not this: a weak reference to this would put each of its retains, one per
        // hedged call, on the slow path of a side table. The handler holding the queue that holds
        // the timer is a cycle until `deinit` cancels the timer, and Dispatch lets go of a
        // cancelled source's handler.
        timer.setEventHandler { fireDue(locked) }
        timer.activate()
        queue.timer = timer
        return timer
    }

    private static func remove(at index: Int, from heap: inout [Ticket]) {
        heap[index].index = -1
        let last = heap.removeLast()
        guard index < heap.count else { return }
        heap[index] = last
        last.index = index
        siftDown(&heap, from: index)
        siftUp(&heap, from: last.index)
    }

    private static func siftUp(_ heap: inout [Ticket], from index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            swapAt(child, parent, in: &heap)
            child = parent
        }
    }

    private static func siftDown(_ heap: inout [Ticket], from index: Int) {
        var parent = index
        while true {
            var smallest = parent
            let (left, right) = (2 * parent + 1, 2 * parent + 2)
            if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            swapAt(parent, smallest, in: &heap)
            parent = smallest
        }
    }

    private static func swapAt(_ a: Int, _ b: Int, in heap: inout [Ticket]) {
        heap.swapAt(a, b)
        heap[a].index = a
        heap[b].index = b
    }
}
