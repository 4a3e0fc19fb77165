/// The life of one `URLSessionDataTask` that ``StreamingURLSessionTransport`` runs: when the
/// task may be resumed and when it may be cancelled, whoever ends the exchange and whenever.
///
/// swift-corelibs-foundation (Linux, Swift 6.3) stops the process when `URLSessionTask.cancel()`
/// races the task's own progress: its response's head being handled, or the task failing or
/// completing (swift-corelibs-foundation#3296: "Trying to access a behaviour for a task that in
/// not in the registry"). A caller cannot see a head on its way, so on Linux the task is never
/// cancelled from the moment it is resumed until the delegate has answered its head: an
/// exchange ended meanwhile is ended for its caller at once, and the delegate refuses its head
/// (`.cancel`, URLSession's own way to end a task there, which races nothing). The rules:
/// - A task ended before it is resumed is never resumed; it is cancelled, which nothing else
///   can race.
/// - A task ended while its head may be on its way has its head refused when it arrives (on
///   Apple platforms, whose URLSession has no such race, it is cancelled at once).
/// - A task ended while the delegate answers its head, or after, is cancelled once the answer
///   is given.
/// - A task is cancelled at most once, and never once it has completed.
///
/// A value guarded by the transport's lock; each transition answers what to do with the task
/// once the lock is let go.
package struct DataTaskLifecycle: Sendable, Equatable {
    /// Where the task is.
    package enum Phase: Sendable, Equatable {
        /// Made, not yet resumed.
        case created
        /// Resumed: its response's head may be on its way.
        case started
        /// Its head reached the delegate, which has not yet answered URLSession.
        case answeringHead
        /// Its head was answered: its body, if any, streams.
        case streaming
        /// URLSession reported it complete, or it was cancelled before it was resumed.
        case completed
    }

    /// What the transport does with the task once the lock is let go.
    package enum Action: Sendable, Equatable {
        case none
        case resume
        case cancel
    }

    package private(set) var phase = Phase.created
    /// Whether the exchange has ended for its caller: nothing more of it is wanted.
    package private(set) var isEnded = false
    /// Whether the task was cancelled (or is about to be): it is never cancelled twice.
    package private(set) var isCancelled = false
    /// Whether the task may be cancelled while its head may be on its way: not with
    /// swift-corelibs-foundation.
    private let cancelsAwaitingHead: Bool

    /// A task just made; `cancelsAwaitingHead` is `false` where corelibs-foundation runs it.
    package init(cancelsAwaitingHead: Bool = Self.platformCancelsAwaitingHead) {
        self.cancelsAwaitingHead = cancelsAwaitingHead
    }

    /// Whether this platform's URLSession may cancel a task while its head is on its way.
    package static var platformCancelsAwaitingHead: Bool {
        #if canImport(FoundationNetworking)
            false
        #else
            true
        #endif
    }

    /// The caller starts the exchange: `.resume`, unless it has ended already.
    package mutating func start() -> Action {
        guard phase == .created, !isEnded else { return .none }
        phase = .started
        return .resume
    }

    /// The exchange ends for its caller (cancelled, past its deadline, its body dropped or over
    /// the limit): what to do with the task now.
    package mutating func end() -> Action {
        isEnded = true
        switch phase {
        case .created:
            phase = .completed
            return cancelOnce()
        case .started:
            return cancelsAwaitingHead ? cancelOnce() : .none
        case .answeringHead, .completed:
            return .none
        case .streaming:
            return cancelOnce()
        }
    }

    /// The response's head reached the delegate: whether the delegate refuses it (`.cancel`),
    /// because the exchange has ended (a task is cancelled only once its exchange has ended).
    package mutating func headArrived() -> Bool {
        if phase == .started { phase = .answeringHead }
        return isEnded
    }

    /// The delegate has answered the head, refusing it or not: `.cancel` when the exchange
    /// ended while it answered, since URLSession now takes a cancellation safely.
    package mutating func headAnswered(refused: Bool) -> Action {
        guard phase == .answeringHead else { return .none }
        phase = .streaming
        if refused {
            // The refusal is the task's cancellation.
            isCancelled = true
            return .none
        }
        return isEnded ? cancelOnce() : .none
    }

    /// URLSession reported the task complete: it is never cancelled from now on.
    package mutating func complete() {
        phase = .completed
        isEnded = true
    }

    private mutating func cancelOnce() -> Action {
        guard !isCancelled else { return .none }
        isCancelled = true
        return .cancel
    }
}
