extension HedgeRace: DeadlineTarget {
    /// A hedge's delay passed: the next hedge is due.
    func deadlinePassed() { deliver(.due) }
}
