import Backstop
import Testing

// The code of the DocC article "Who Handles What", as it is written there.

@Test("the session's reasons show no alert once the signed-out handler shows sign-in")
func silenceTheSessionsAlerts() {
    let recovery = RecoveryPolicy(overrides: [
        .client(.tokenRefreshFailed): RecoveryOverride(category: .cancelled),
        .client(.signedOut): RecoveryOverride(category: .cancelled),
        .code(AppCode.signInRequired): RecoveryOverride(category: .cancelled),
    ])
    #expect(recovery.alert(for: AppError<NoModuleCodes>.client(ClientFailure(.signedOut))) == nil)
    #expect(recovery.alert(for: AppError<NoModuleCodes>.server(.general(.signInRequired, message: nil))) == nil)
}
