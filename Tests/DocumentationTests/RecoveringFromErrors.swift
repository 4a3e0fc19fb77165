import Backstop

// The code of the DocC article "Recovering from Errors" that the app around it shares; the rest
// of the article is compiled and run by BackstopTests' RecoveryArticleTests.

extension RecoveryAction {
    static let openSettings = RecoveryAction("openSettings", title: "Open Settings")
    static let contactSupport = RecoveryAction("contactSupport", title: "Contact Support")
}
