import Backstop
import Testing

/// The rules by which `StreamingURLSessionTransport` resumes and cancels each data task, as a
/// state machine on its own: whoever ends an exchange and whenever, a task is never resumed
/// after its exchange ended, never cancelled while swift-corelibs-foundation may be handling
/// its head, never cancelled twice, and never cancelled once complete.
@Suite("Data task lifecycle")
struct DataTaskLifecycleTests {
    typealias Action = DataTaskLifecycle.Action

    /// corelibs-foundation's rules (Linux); `cancelsAwaitingHead: true` is Apple's URLSession.
    static func linux() -> DataTaskLifecycle { DataTaskLifecycle(cancelsAwaitingHead: false) }

    @Test func aTaskEndedBeforeItIsResumedIsCancelledAndNeverResumed() {
        var task = Self.linux()
        #expect(task.end() == .cancel)
        #expect(task.start() == .none)
        #expect(task.phase == .completed)
        #expect(task.end() == .none)
    }

    @Test func aTaskRunsItsCourseWithoutACancellation() {
        var task = Self.linux()
        #expect(task.start() == .resume)
        let refused = task.headArrived()
        #expect(!refused)
        #expect(task.headAnswered(refused: false) == .none)
        #expect(task.phase == .streaming)
        task.complete()
        #expect(task.end() == .none)
        #expect(!task.isCancelled)
    }

    @Test func onLinuxATaskEndedWhileItsHeadMayBeOnItsWayHasItsHeadRefusedWhenItArrives() {
        var task = Self.linux()
        #expect(task.start() == .resume)
        #expect(task.end() == .none)
        #expect(task.isEnded && !task.isCancelled)
        let refused = task.headArrived()
        #expect(refused)
        #expect(task.headAnswered(refused: true) == .none)
        #expect(task.isCancelled)
        #expect(task.end() == .none)
    }

    @Test func onLinuxATaskEndedWhileTheDelegateAnswersItsHeadIsCancelledAfterTheAnswer() {
        var task = Self.linux()
        _ = task.start()
        let refused = task.headArrived()
        #expect(!refused)
        #expect(task.end() == .none)
        #expect(task.headAnswered(refused: false) == .cancel)
        #expect(task.end() == .none)
    }

    @Test func onApplePlatformsATaskEndedWhileItsHeadMayBeOnItsWayIsCancelledAtOnceAndOnce() {
        var task = DataTaskLifecycle(cancelsAwaitingHead: true)
        _ = task.start()
        #expect(task.end() == .cancel)
        let refused = task.headArrived()
        #expect(refused)
        #expect(task.headAnswered(refused: true) == .none)
    }

    @Test func aTaskEndedWhileItsBodyStreamsIsCancelledAtOnceAndOnce() {
        var task = Self.linux()
        _ = task.start()
        _ = task.headArrived()
        _ = task.headAnswered(refused: false)
        #expect(task.end() == .cancel)
        #expect(task.end() == .none)
        #expect(task.isCancelled)
    }

    @Test func aTaskEndedAfterItCompletedIsNotCancelled() {
        var task = Self.linux()
        _ = task.start()
        task.complete()
        #expect(task.end() == .none)
        #expect(task.headAnswered(refused: false) == .none)
        #expect(!task.isCancelled)
    }

    @Test func aTaskThatFailedBeforeItsHeadIsNeverCancelled() {
        var task = Self.linux()
        _ = task.start()
        #expect(task.end() == .none)
        task.complete()
        #expect(task.headAnswered(refused: false) == .none)
        #expect(!task.isCancelled)
    }

    /// Every order of the events a task can meet keeps the rules.
    @Test func everyOrderOfEventsKeepsTheRules() {
        enum Event: CaseIterable { case start, end, head, complete }
        func orders(_ events: [Event]) -> [[Event]] {
            guard !events.isEmpty else { return [[]] }
            return events.indices.flatMap { index in
                var rest = events
                let first = rest.remove(at: index)
                return orders(rest).map { [first] + $0 }
            }
        }
        for order in orders(Event.allCases) {
            for cancelsAwaitingHead in [false, true] {
                var task = DataTaskLifecycle(cancelsAwaitingHead: cancelsAwaitingHead)
                // Cancellations and refused heads: each ends the task, so there is one at most.
                var cancels = 0
                var resumed = false
                var completed = false
                for event in order {
                    var action = Action.none
                    switch event {
                    case .start:
                        action = task.start()
                    case .end:
                        action = task.end()
                        // On Linux, never while the head may be on its way.
                        if action == .cancel, !cancelsAwaitingHead { #expect(!resumed || task.phase == .streaming, "\(order)") }
                    case .head:
                        // A head arrives only for a task that was resumed and has not completed.
                        guard resumed, !completed else { continue }
                        let wasCancelled = task.isCancelled
                        let refused = task.headArrived()
                        if refused && !wasCancelled { cancels += 1 }
                        action = task.headAnswered(refused: refused)
                    case .complete:
                        // URLSession completes only a task that was resumed.
                        guard resumed else { continue }
                        task.complete()
                        completed = true
                    }
                    if action == .resume { resumed = true }
                    if action == .cancel {
                        cancels += 1
                        #expect(!completed, "cancelled after it completed: \(order)")
                    }
                }
                #expect(cancels <= 1, "\(order)")
            }
        }
    }
}
