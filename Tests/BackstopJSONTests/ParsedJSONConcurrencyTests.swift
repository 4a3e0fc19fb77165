import BackstopJSON
import Foundation
import Testing

/// One `ParsedJSON` shared by many tasks, as envelope contracts share a parsed body.
///
/// CI runs this suite under ThreadSanitizer (`.ci/run`), which is what proves the document
/// is only read after parsing; without it the test still checks every task's results.
@Suite struct ParsedJSONConcurrencyTests {
    struct Item: Decodable, Equatable, Sendable {
        var id: Int
        var name: String
        /// Absent in every item: its decoder stands on the document's detached `null`.
        @DefaultIfAbsent var tags: [String]
        @LenientScalar var rank: Int
    }

    struct Page: Decodable, Equatable, Sendable {
        var items: [Item]
        var next: String?
    }

    private static let body: Data = {
        let items = (0..<40).map { #"{"id":\#($0),"name":"item \#($0)","rank":"\#($0 * 2)"}"# }
        return Data(#"{"result":{"page":{"items":[\#(items.joined(separator: ","))],"next":null},"total":40},"code":0}"#.utf8)
    }()

    private static func expectedPage() -> Page {
        Page(items: (0..<40).map { Item(id: $0, name: "item \($0)", tags: [], rank: $0 * 2) }, next: nil)
    }

    @Test func decodingOneDocumentFromManyTasksGivesEveryTaskTheSameResult() async throws {
        let json = try ParsedJSON(Self.body, decoder: ResilientJSONDecoder(policy: .lenient))
        let expected = Self.expectedPage()

        let results = try await withThrowingTaskGroup(of: (Page, Int, JSONKind, JSONValue?).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var pages: [Page] = []
                    for _ in 0..<25 {
                        let report = try json.decode(Page.self, at: ["result", "page"])
                        pages.append(report.value)
                        // Each item's missing `tags` and coerced `rank`: 80 repairs per decode.
                        #expect(report.repairs.count == 80)
                    }
                    #expect(pages.allSatisfy { $0 == pages[0] })
                    let total = try json.decode(Int.self, at: ["result", "total"]).value
                    return (pages[0], total, json.kind(at: ["result", "page", "items"]), json.value(at: ["code"]))
                }
            }
            var collected: [(Page, Int, JSONKind, JSONValue?)] = []
            for try await result in group { collected.append(result) }
            return collected
        }

        #expect(results.count == 8)
        for (page, total, kind, code) in results {
            #expect(page == expected)
            #expect(total == 40)
            #expect(kind == .array)
            #expect(code == .integer(0))
        }
    }
}
