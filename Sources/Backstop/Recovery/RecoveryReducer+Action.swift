extension RecoveryReducer {
    /// What happened: an alert was raised, the user chose a button, or the alert was closed.
    public enum Action: Equatable, Sendable {
        /// Show `alert`; choosing retry re-sends `retry`, with the requests of identical
        /// alerts raised while it is pending.
        case raise(RecoveryAlert, retry: Request?)
        /// The user chose an action of an alert.
        case choose(RecoveryAction.ID, on: RecoveryAlert.ID)
        /// The alert was closed without a choice, as SwiftUI does when its binding turns false.
        case dismiss(RecoveryAlert.ID)
    }
}
