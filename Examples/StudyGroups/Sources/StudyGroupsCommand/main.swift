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

/// The screen as the command prints it: each group with its id and member count, or the case.
func describe(_ screen: GroupScreen) -> String {
    let list = { (groups: [StudyGroup]) in groups.map { "\($0.name) (\($0.id), \($0.memberCount) members)" }.joined(separator: ", ") }
    switch screen {
    case .groups(let groups): return "groups: " + list(groups)
    case .savedGroups(let groups, let notice): return "\(notice.message)\n  saved groups: " + list(groups)
    case .teamCodeHint, .classGone, .alert: return "\(screen)"
    }
}

for path in [
    "b/study-groups",  // a clean answer
    "scenarios/numbers-as-strings/b/study-groups",  // repaired, counted as drift
    "scenarios/wrong-team-code/b/study-groups",  // the feature's own code
    "scenarios/class-not-found/b/study-groups",
    "scenarios/maintenance/b/study-groups",  // app-wide: an alert
] {
    let screen = await GroupScreen.load(path, networking: networking, presenter: presenter)
    print("\(path) → \(describe(screen))")
    if let alert = presenter.alert {
        print("  alert: \(alert.title) — \(alert.message)")
        presenter.dismiss(alert.id)
    }
}

print("\ncontract drift, for the backend team:")
print(networking.drift.report().table())

// The saved answers: the list is loaded every 2 seconds while `backstop serve` answers; once it
// stops, the screen shows the list as it was last loaded, with the notice, and no alert.
print("\nnow stop `backstop serve` (Ctrl-C where it runs): the list is loaded every 2 seconds until it is shown as saved")
while true {
    let screen = await GroupScreen.load("b/study-groups", networking: networking, presenter: presenter)
    if case .savedGroups = screen {
        print("b/study-groups → \(describe(screen))")
        break
    }
    if let alert = presenter.alert {
        print("b/study-groups → \(describe(screen))\n  alert: \(alert.title) — \(alert.message)")
        presenter.dismiss(alert.id)
    }
    try? await Task.sleep(for: .seconds(2))
}
