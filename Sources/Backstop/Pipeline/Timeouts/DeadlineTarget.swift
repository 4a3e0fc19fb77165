/// What a ``DeadlineTimers`` tells when its deadline passes: a hedged call's race, a timeout's task.
protocol DeadlineTarget: Sendable {
    /// Called once, on a Dispatch queue, when the deadline passed.
    func deadlinePassed()
}
