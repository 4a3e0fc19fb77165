/// The rules of presenting recovery alerts as a pure function, for TCA and other
/// unidirectional architectures, without depending on them.
///
/// `Request` is whatever the app re-sends to retry, such as one of its own actions. A TCA
/// reducer forwards to ``reduce(_:_:)`` and turns the ``Effect`` into its own effects; its
/// tests compare states with `==`. ``RecoveryPresenter`` runs on the same rules:
/// - One alert is shown at a time; others wait in order.
/// - An alert raised while one that shows the same (category, title, message, actions; a
///   rate-limited alert's wait aside) is shown or waiting joins it: its request is added,
///   once, and choosing retry re-sends them all.
///   The alert keeps the error it was first raised with.
/// - Cancelled alerts are never shown.
/// - Retry closes the alert and re-sends its requests; if they fail again the app raises a
///   fresh alert, and nothing retries on its own.
/// - Sign-in and app-defined actions close the alert and route; cancel, dismiss and confirm
///   close it. Choices and dismissals for an alert that is not the one shown are ignored.
public enum RecoveryReducer<Request: Equatable & Sendable> {
    /// The next state and what to do, for `action` in `state`.
    public static func reduce(_ state: State, _ action: Action) -> (State, Effect) {
        var state = state
        switch action {
        case .raise(let alert, let request):
            guard alert.category != .cancelled else { return (state, .none) }
            state.raise(alert, request: request)
            return (state, .none)

        case .choose(let actionID, let alertID):
            guard let shown = state.shown, shown.alert.id == alertID,
                let chosen = shown.alert.actions.first(where: { $0.id == actionID })
            else { return (state, .none) }
            state.closeShown()
            switch chosen.id {
            case .retry: return (state, shown.requests.isEmpty ? .none : .retry(shown.requests))
            case .signIn: return (state, .route(.signIn(from: shown.alert)))
            case .cancel, .dismiss, .confirm: return (state, .none)
            default: return (state, .route(.appAction(chosen, from: shown.alert)))
            }

        case .dismiss(let alertID):
            guard state.shown?.alert.id == alertID else { return (state, .none) }
            state.closeShown()
            return (state, .none)
        }
    }
}
