/// Callers waiting in order for a value, each able to leave at once when its task is cancelled:
/// the one way Backstop's queues (``ConcurrencyLimit``, ``RequestCoalescing``'s flights,
/// `RefreshFlight`) wait.
///
/// The bookkeeping only, kept inside its owner's locked state so that deciding to wait and
/// what the owner counts (calls running, a flight's answer) change together; the owner's
/// `LockedValue` suspends and cancels with ``LockedValue/wait(for:in:)``. Every method is
/// called under that lock and returns the ``Wake``s to resume once it is released.
///
/// Rules a test can check:
/// - A caller is a waiter from ``enroll()``, before its task suspends: a value given then
///   (``resumeFirst(with:)``, ``resumeAll(with:)``) is kept for it and returned when it waits.
/// - A waiter whose task is cancelled before it waits, while it waits or between the two
///   ends with `CancellationError` as soon as it waits, unless it was given a value first: the
///   value wins. A cancelled waiter is never chosen by ``resumeFirst(with:)``.
/// - ``resumeFirst(with:)`` chooses the longest-waiting waiter that is not cancelled.
/// - Every ticket leaves the queue when its waiter returns or throws: nothing is left behind.
package struct WaiterQueue<Value: Sendable>: Sendable {
    /// One caller's place in the queue.
    package struct Ticket: Hashable, Sendable {
        fileprivate let number: UInt64
    }

    /// A suspended waiter and what it wakes with; resume it outside the lock.
    ///
    /// Its continuation is unsafe, not checked: a `CheckedContinuation`'s layout is not known
    /// outside the standard library, so every optional `Wake` a queue answers was read through
    /// its type's metadata, looked up per call. The queue resumes each continuation once: a
    /// place leaves the queue as its `Wake` is made.
    package struct Wake: Sendable {
        fileprivate let continuation: UnsafeContinuation<Value, any Error>
        fileprivate let result: Result<Value, any Error>

        /// Wakes the waiter.
        package func resume() { continuation.resume(with: result) }
    }

    private enum Place: Sendable {
        /// Enrolled; its task has not suspended yet.
        case enrolled
        /// Suspended until woken.
        case waiting(UnsafeContinuation<Value, any Error>)
        /// Given a value before it suspended: it returns the value when it waits.
        case given(Value)
        /// Cancelled before it suspended: it throws when it waits.
        case cancelled
    }

    /// In enrolment order: tickets are numbered upwards, so the first is the longest waiting.
    private var places: [(ticket: Ticket, place: Place)] = []
    private var lastNumber: UInt64 = 0

    /// An empty queue.
    package init() {}

    /// How many waiters are neither given a value nor cancelled: the ones still waiting.
    package var count: Int {
        places.count { entry in
            switch entry.place {
            case .enrolled, .waiting: true
            case .given, .cancelled: false
            }
        }
    }

    /// How many waiters have suspended and wait for a value now.
    package var suspended: Int {
        places.count { entry in
            if case .waiting = entry.place { true } else { false }
        }
    }

    /// Whether no waiter is still waiting (see ``count``).
    package var isEmpty: Bool { count == 0 }

    /// How many tickets the queue holds, whatever their state: 0 once every waiter has left.
    package var tickets: Int { places.count }

    /// A place at the back of the queue, taken before waiting so the caller counts from now.
    package mutating func enroll() -> Ticket {
        lastNumber += 1
        let ticket = Ticket(number: lastNumber)
        places.append((ticket, .enrolled))
        return ticket
    }

    /// The waiter of `ticket` suspends with `continuation`: a wake now if it was given a value
    /// or cancelled already.
    mutating func park(_ ticket: Ticket, _ continuation: UnsafeContinuation<Value, any Error>) -> Wake? {
        guard let index = index(of: ticket) else {
            // Not enrolled, or woken already: a caller's mistake, answered as a cancellation, not a hang.
            return Wake(continuation: continuation, result: .failure(CancellationError()))
        }
        switch places[index].place {
        case .enrolled:
            places[index].place = .waiting(continuation)
            return nil
        case .given(let value):
            places.remove(at: index)
            return Wake(continuation: continuation, result: .success(value))
        case .cancelled, .waiting:
            places.remove(at: index)
            return Wake(continuation: continuation, result: .failure(CancellationError()))
        }
    }

    /// The task of `ticket`'s waiter was cancelled: it leaves now, unless it was given a value.
    mutating func cancel(_ ticket: Ticket) -> Wake? {
        guard let index = index(of: ticket) else { return nil }
        switch places[index].place {
        case .enrolled:
            places[index].place = .cancelled
            return nil
        case .waiting(let continuation):
            places.remove(at: index)
            return Wake(continuation: continuation, result: .failure(CancellationError()))
        case .given, .cancelled:
            return nil
        }
    }

    /// Gives `value` to the longest-waiting waiter that is not cancelled, if any: whether one
    /// was found, and its wake if it had suspended already.
    package mutating func resumeFirst(with value: Value) -> (found: Bool, wake: Wake?) {
        for index in places.indices {
            switch places[index].place {
            case .enrolled:
                places[index].place = .given(value)
                return (true, nil)
            case .waiting(let continuation):
                places.remove(at: index)
                return (true, Wake(continuation: continuation, result: .success(value)))
            case .given, .cancelled:
                continue
            }
        }
        return (false, nil)
    }

    /// Gives `value` to every waiter still waiting; the wakes of those that had suspended.
    package mutating func resumeAll(with value: Value) -> [Wake] {
        var wakes: [Wake] = []
        var kept: [(ticket: Ticket, place: Place)] = []
        kept.reserveCapacity(places.count)
        for (ticket, place) in places {
            switch place {
            case .enrolled: kept.append((ticket, .given(value)))
            case .waiting(let continuation): wakes.append(Wake(continuation: continuation, result: .success(value)))
            case .given, .cancelled: kept.append((ticket, place))
            }
        }
        places = kept
        return wakes
    }

    private func index(of ticket: Ticket) -> Int? {
        // Numbered upwards and appended in order: a binary search finds it.
        var (low, high) = (0, places.count)
        while low < high {
            let middle = (low + high) / 2
            if places[middle].ticket.number < ticket.number { low = middle + 1 } else { high = middle }
        }
        return low < places.count && places[low].ticket == ticket ? low : nil
    }
}

extension LockedValue {
    /// Waits for `ticket`'s value in the ``WaiterQueue`` that `queue` reaches inside this
    /// locked value; throws `CancellationError` as soon as the task is cancelled, unless the
    /// value was given first (see the queue's rules).
    ///
    /// - Parameter queue: Runs its second argument on the queue, under this lock; the queue may
    ///   live in the locked value or in an object the lock guards.
    package func wait<Element>(
        for ticket: WaiterQueue<Element>.Ticket,
        in queue:
            @escaping @Sendable (inout Value, (inout WaiterQueue<Element>) -> WaiterQueue<Element>.Wake?) ->
            WaiterQueue<Element>.Wake?
    ) async throws -> Element {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Element, any Error>) in
                withLock { value in queue(&value) { $0.park(ticket, continuation) } }?.resume()
            }
        } onCancel: {
            withLock { value in queue(&value) { $0.cancel(ticket) } }?.resume()
        }
    }
}
