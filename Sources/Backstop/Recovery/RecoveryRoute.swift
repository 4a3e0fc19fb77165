/// Where the app should take the user after they chose an action on a recovery alert.
///
/// Published by ``RecoveryPresenter/routes`` and returned by ``RecoveryReducer`` as an
/// effect; the alert says what failed, for a support form or analytics.
public enum RecoveryRoute: Sendable, Equatable {
    /// The user chose ``RecoveryAction/signIn``: show the sign-in screen.
    case signIn(from: RecoveryAlert)
    /// The user chose an action the app declared, such as "Open Settings".
    case appAction(RecoveryAction, from: RecoveryAlert)
}
