import Backstop
import Foundation
import StudyGroups

// Runs the app's calls against a backend-B server: BadBackend, started in the repository with
// `swift run backstop serve --port 8080`, unless another base URL is given.
//
//     swift run study-groups                          # http://127.0.0.1:8080
//     swift run study-groups http://127.0.0.1:54321   # the port `backstop serve` printed

let argument = CommandLine.arguments.dropFirst().first ?? "http://127.0.0.1:8080"
guard let baseURL = URL(string: argument), baseURL.host != nil else {
    print("usage: study-groups [base URL], such as http://127.0.0.1:8080 (not \(argument))")
    exit(64)
}

let networking = Networking(baseURL: baseURL, store: TokenStore())
let presenter = RecoveryPresenter(locale: Locale(identifier: "en"))

do {
    try await networking.signIn(user: "ada")
    print("signed in; account: \(try await networking.account().name)")
} catch {
    print("sign-in failed: \(error)")
    print("is `swift run backstop serve --port 8080` running, and is \(baseURL) its address?")
    exit(1)
}

for path in [
    "b/study-groups/7",  // a clean answer
    "scenarios/numbers-as-strings/b/study-groups/7",  // repaired, counted as drift
    "scenarios/wrong-team-code/b/study-groups/7",  // the feature's own code
    "scenarios/class-not-found/b/study-groups/7",
    "scenarios/maintenance/b/study-groups/7",  // app-wide: an alert
] {
    let screen = await GroupScreen.load(path, networking: networking, presenter: presenter)
    print("\(path) → \(screen)")
    if let alert = presenter.alert {
        print("  alert: \(alert.title) — \(alert.message)")
        presenter.dismiss(alert.id)
    }
}

print("\ncontract drift, for the backend team:")
print(networking.drift.report().table())

// The saved answers: group 7 is loaded every 2 seconds while `backstop serve` answers; once it
// stops, the screen shows the group as it was last loaded, with the notice, and no alert.
print("\nnow stop `backstop serve` (Ctrl-C where it runs): group 7 is loaded every 2 seconds until it is shown as saved")
while true {
    let screen = await GroupScreen.load("b/study-groups/7", networking: networking, presenter: presenter)
    if case .savedGroup(let group, let notice) = screen {
        print("b/study-groups/7 → \(notice.message)\n  \(group)")
        break
    }
    if let alert = presenter.alert {
        print("b/study-groups/7 → \(screen)\n  alert: \(alert.title) — \(alert.message)")
        presenter.dismiss(alert.id)
    }
    try? await Task.sleep(for: .seconds(2))
}
