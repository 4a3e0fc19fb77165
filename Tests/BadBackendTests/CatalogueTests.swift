import BackstopTestSupport
import BadBackend
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("GET /scenarios")
struct CatalogueTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Lists every style, resource, scenario and query item, and the configuration")
    func catalogue() async throws {
        let configuration = BadBackend.Configuration(randomFaults: RandomFaults(rate: 0.25, seed: 9))
        try await withBackend(configuration) { _, url in
            let answer = try await HTTP.fetch(url, "/scenarios")
            #expect(answer.status == 200)
            #expect(answer.value(at: "styles") as? [String] == ["a", "b", "c"])
            let scenarios = try #require(answer.value(at: "scenarios") as? [[String: Any]])
            #expect(scenarios.compactMap { $0["name"] as? String } == Scenario.all.map(\.name))
            #expect((answer.value(at: "resources") as? [Any])?.count == 9)
            #expect(
                (answer.value(at: "queryItems") as? [[String: Any]])?.compactMap { $0["name"] as? String } == [
                    "failures", "status", "retryAfter",
                ])
            #expect(answer.value(at: "randomFaults.seed") as? Int == 9)
            #expect(answer.value(at: "generalCodes.token-expired") as? Int == 11001)
            #expect(answer.value(at: "auth.accessTokenLifetimeSeconds") as? Int == 300)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Every listed example answers as its scenario says")
    func examples() async throws {
        try await withBackend { _, url in
            let answer = try await HTTP.fetch(url, "/scenarios")
            let scenarios = try #require(answer.value(at: "scenarios") as? [[String: Any]])
            for entry in scenarios {
                guard let name = entry["name"] as? String, let example = entry["example"] as? String,
                    let scenario = Scenario(name: name), scenario != .slow, scenario != .burst, scenario != .connectionClosedMidBody
                else { continue }
                let fetched = try await HTTP.fetch(url, example)
                switch scenario {
                case .httpStatus(let status): #expect(fetched.status == status, "\(name)")
                case .htmlErrorPage: #expect(fetched.status == 502, "\(name)")
                case .outage: #expect(fetched.status == 503, "\(name)")
                default: #expect(fetched.status == 200, "\(name)")
                }
                if let code = entry["code"] as? Int { #expect(fetched.value(at: "code") as? Int == code, "\(name)") }
            }
        }
    }

    @Test("The DocC article on scenario paths names every scenario and query item")
    func article() throws {
        let article = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/BadBackend/BadBackend.docc/ScenarioPaths.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        for scenario in Scenario.all {
            #expect(text.contains("`\(scenario.name)`"), "\(scenario.name)")
        }
        for item in ["failures=N", "status=NNN", "retryAfter=S"] {
            #expect(text.contains("`\(item)`"), "\(item)")
        }
    }
}
