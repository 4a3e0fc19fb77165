import Backstop
import BackstopOpenAPI
import Foundation
import StudyGroupsAPI

// Runs the generated client's calls against BadBackend, started in the repository with
// `swift run backstop serve --port 8080`, unless another base URL is given: the clean answer,
// then each of BadBackend's dirty-data scenarios, then a business code.
//
//     swift run study-groups-api                          # http://127.0.0.1:8080
//     swift run study-groups-api http://127.0.0.1:54321   # the port `backstop serve` printed

let argument = CommandLine.arguments.dropFirst().first ?? "http://127.0.0.1:8080"
guard let baseURL = URL(string: argument), baseURL.host != nil else {
    print("usage: study-groups-api [base URL], such as http://127.0.0.1:8080 (not \(argument))")
    exit(64)
}

let contract: OpenAPIContract
do {
    contract = try StudyGroupsAPI.contract()
} catch {
    print("openapi.yaml: \(error)")
    exit(1)
}
let drift = ContractDriftRecorder()
let policy = RecoveryPolicy(catalog: .builtIn)

/// The client of one scenario: BadBackend breaks every resource under `scenarios/<name>/`.
func api(_ scenario: String?) -> StudyGroupsAPI {
    let url = scenario.map { baseURL.appendingPathComponent("scenarios").appendingPathComponent($0) } ?? baseURL
    return StudyGroupsAPI(serverURL: url, contract: contract, drift: drift)
}

for scenario in [nil, "numbers-as-strings", "nulls-and-missing-fields", "unknown-enum-values", "broken-array-element", "maintenance"] {
    let name = scenario ?? "clean"
    do {
        if let group = try await api(scenario).studyGroup(id: 7) {
            print("\(name): study group \(group.id) \"\(group.name)\", \(group.role), \(group.memberCount) members")
        } else {
            print("\(name): no study group")
        }
    } catch {
        guard let appError = StudyGroupsAPI.appError(in: error) else {
            print("\(name): failed: \(error)")
            print("is `swift run backstop serve --port 8080` running, and is \(baseURL) its address?")
            exit(1)
        }
        let alert = policy.alert(for: appError, locale: Locale(identifier: "en"))
        print("\(name): \(appError)" + (alert.map { "\n  alert: \($0.title) — \($0.message)" } ?? ""))
    }
}
do {
    let products = try await api("broken-array-element").products()
    print("broken-array-element: products \(products.map(\.id))")
} catch {
    print("broken-array-element: products failed: \(error)")
}

print("\ncontract drift, for the backend team:")
print(drift.report().table())
