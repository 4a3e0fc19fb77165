import BackstopTestSupport
import BadBackend
import Foundation
import Testing

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("GET /{style}/study-groups", .timeLimit(.minutes(1)))
struct StudyGroupListTests {
    /// Where each style's envelope keeps the payload.
    static func payload(_ style: EnvelopeStyle) -> String { style == .b ? "data" : "result.data" }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Lists groups 7, 8 and 9 in each style's envelope, each as its own path serves it", arguments: EnvelopeStyle.allCases)
    func listInEachStyle(style: EnvelopeStyle) async throws {
        try await withBackend { _, url in
            let list = try await HTTP.fetch(url, "/\(style.rawValue)/study-groups")
            #expect(list.status == 200)
            #expect(list.header("Content-Type")?.hasPrefix("application/json") == true)
            let data = Self.payload(style)
            let groups = try #require(list.value(at: data) as? [[String: Any]])
            #expect(groups.compactMap { $0["id"] as? Int } == [7, 8, 9])
            #expect(groups.compactMap { $0["name"] as? String } == ["Calculus B", "Linear Algebra", "Organic Chemistry"])
            #expect(groups.compactMap { $0["memberCount"] as? Int } == [3, 2, 4])
            #expect(groups.compactMap { $0["role"] as? String } == ["owner", "member", "member"])
            for (index, id) in [7, 8, 9].enumerated() {
                let one = try await HTTP.fetch(url, "/\(style.rawValue)/study-groups/\(id)")
                let served = try #require(one.value(at: data) as? NSDictionary)
                #expect(served == groups[index] as NSDictionary, "group \(id)")
            }
            // Any other id is still group 7's fields with that id.
            let other = try await HTTP.fetch(url, "/\(style.rawValue)/study-groups/42")
            #expect(other.value(at: "\(data).id") as? Int == 42)
            #expect(other.value(at: "\(data).name") as? String == "Calculus B")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Every dirty-data scenario applies to the list as to the other resources")
    func dirtyData() async throws {
        try await withBackend { _, url in
            let strings = try await HTTP.fetch(url, "/scenarios/numbers-as-strings/b/study-groups")
            #expect((strings.value(at: "data") as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["7", "8", "9"])
            #expect(strings.value(at: "data.1.memberCount") as? String == "2")
            #expect(strings.value(at: "data.2.members.0.id") as? String == "2")

            let nulls = try await HTTP.fetch(url, "/scenarios/nulls-and-missing-fields/a/study-groups")
            let nulled = try #require(nulls.value(at: "result.data") as? [[String: Any]])
            #expect(nulled.count == 3)
            #expect(nulled.allSatisfy { $0["teamCode"] is NSNull && $0["memberCount"] == nil })

            let enums = try await HTTP.fetch(url, "/scenarios/unknown-enum-values/c/study-groups")
            #expect(
                (enums.value(at: "result.data") as? [[String: Any]])?.compactMap { $0["role"] as? String }
                    == Array(repeating: "co-owner", count: 3))

            // One element of the list is broken; its siblings arrive clean.
            let broken = try await HTTP.fetch(url, "/scenarios/broken-array-element/b/study-groups")
            #expect(broken.value(at: "data.0.id") as? Int == 7)
            #expect(broken.value(at: "data.0.members.1.nickname") as? String == "Grace")
            #expect(broken.value(at: "data.1.id") as? String == "eight?")
            #expect(broken.value(at: "data.1.name") is NSNull)
            #expect(broken.value(at: "data.1.members") is [String: Any])
            #expect(broken.value(at: "data.2.id") as? Int == 9)
            #expect(broken.value(at: "data.2.memberCount") as? Int == 4)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The other scenarios and query items apply to the list too")
    func otherScenarios() async throws {
        try await withBackend { _, url in
            let maintenance = try await HTTP.fetch(url, "/scenarios/maintenance/b/study-groups")
            #expect(maintenance.status == 200)
            #expect(maintenance.value(at: "code") as? Int == BadBackend.GeneralCode.maintenance.rawValue)
            #expect(maintenance.value(at: "data") is NSNull)

            let unavailable = try await HTTP.fetch(url, "/scenarios/http-503/a/study-groups")
            #expect(unavailable.status == 503)
            #expect(unavailable.value(at: "statusCode") as? Int == 50300)

            let path = "/scenarios/class-not-found/b/study-groups?failures=1"
            #expect(try await HTTP.fetch(url, path).value(at: "code") as? Int == BadBackend.StudyGroupCode.classNotFound.rawValue)
            #expect(try await HTTP.fetch(url, path).value(at: "data.0.id") as? Int == 7)

            let posted = try await HTTP.fetch(url, "/b/study-groups", method: "POST", json: "{}")
            #expect(posted.status == 405)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("GET /scenarios lists the route")
    func catalogued() async throws {
        try await withBackend { _, url in
            let catalogue = try await HTTP.fetch(url, "/scenarios")
            let resources = try #require(catalogue.value(at: "resources") as? [[String: Any]])
            #expect(resources.contains { $0["method"] as? String == "GET" && $0["path"] as? String == "/{style}/study-groups" })
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Served from BadBackend's own document, Backstop-Scenario and the path prefix make the list dirty")
    func ownDocumentServed() async throws {
        let document = try BadBackend.ServedDocument(data: BadBackend.openAPIDocument, source: "openapi.yaml", seed: 1)
        try await withBackend(.init(document: document)) { _, url in
            for style in EnvelopeStyle.allCases {
                let clean = try await HTTP.fetch(url, "/\(style.rawValue)/study-groups")
                #expect(clean.status == 200)
                #expect(clean.value(at: "\(Self.payload(style)).0.id") is Int, "\(style)")
            }
            let header = try await HTTP.fetch(url, "/b/study-groups", headers: ["Backstop-Scenario": "numbers-as-strings"])
            #expect(header.header("Backstop-Scenario-Applied") == "numbers-as-strings")
            #expect(header.value(at: "data.0.id") is String)
            let prefix = try await HTTP.fetch(url, "/scenarios/unknown-enum-values/c/study-groups")
            #expect(prefix.header("Backstop-Scenario-Applied") == "unknown-enum-values")
            #expect(!["owner", "member"].contains(prefix.value(at: "result.data.0.role") as? String))
        }
    }
}
