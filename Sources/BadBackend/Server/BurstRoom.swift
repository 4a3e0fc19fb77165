/// The room the `burst` scenario has for requests at once, across all its paths.
actor BurstRoom {
    private var inside = 0

    /// Lets a request in if fewer than `capacity` are inside; `false` when it must be refused.
    func enter(capacity: Int) -> Bool {
        guard inside < capacity else { return false }
        inside += 1
        return true
    }

    /// A request that entered has been answered.
    func leave() {
        inside -= 1
    }
}
