extension RecoveryReducer {
    /// What the app should do after a step: nothing, re-send requests, or route the user.
    public enum Effect: Equatable, Sendable {
        /// Nothing to do.
        case none
        /// Re-send these requests, each once, in the order they failed.
        case retry([Request])
        /// Take the user elsewhere: the sign-in screen or an app-defined action's destination.
        case route(RecoveryRoute)
    }
}
