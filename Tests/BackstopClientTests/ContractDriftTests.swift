import Backstop
import BackstopJSON
import BackstopTestSupport
import BadBackend
import Foundation
import MetricsTestKit
import Testing

extension BackstopClient {
    /// The contract-drift recorder: what a backend breaks, by operation and field, with counts.
    @Suite("Contract drift")
    struct ContractDriftTests {
        struct Group: Decodable, Sendable {
            struct Member: Decodable, Sendable { var id: Int }
            var id: Int
            var memberCount: Int
            var members: [Member]
        }

        static let fixedNow = Date(timeIntervalSince1970: 1_795_000_000)
        static let dirty = Endpoint<Group, StudyGroupCode>(.get, "scenarios/numbers-as-strings/b/study-groups/7")

        @available(macOS 14, iOS 17, tvOS 17, *)
        @Test(arguments: TransportKind.allCases)
        func callsRecordTheirRepairsByOperationAndIndexFreePath(transport: TransportKind) async throws {
            try await withBackend { _, url in
                let metrics = TestMetrics()
                let recorder = ContractDriftRecorder(metricsFactory: metrics, now: { Self.fixedNow })
                let client = makeClient(url, transport, pipeline: quietPipeline { $0.contractDrift = recorder })
                for _ in 0..<2 { _ = try await client.send(Self.dirty) }
                _ = try await client.send(Endpoint<Group, StudyGroupCode>(.get, "b/study-groups/7"))  // clean: nothing
                let report = recorder.report()
                let operation = "GET scenarios/numbers-as-strings/b/study-groups/{id}"
                #expect(
                    report.entries.map { "\($0.count) \($0.operation) \($0.path) \($0.found) \($0.action)" } == [
                        "6 \(operation) $.data.members[*].id string coerced",
                        "2 \(operation) $.data.id string coerced",
                        "2 \(operation) $.data.memberCount string coerced",
                    ])
                #expect(report.entries.first?.sample == #""1""#)
                #expect(report.entries.allSatisfy { $0.firstSeen == Self.fixedNow && $0.lastSeen == Self.fixedNow })
                let counter = try #require(metrics.counters(label: "backstop_contract_drift_total").first)
                #expect(counter.dimensions.map { "\($0.0)=\($0.1)" } == ["operation=\(operation)", "action=coerced"])
                #expect(counter.totalValue == 10)
            }
        }

        @Test("the snapshot round-trips through JSON, and reads as a table, plain or Markdown")
        func snapshotAndTable() throws {
            let recorder = ContractDriftRecorder(metricsFactory: TestMetrics(), now: { Self.fixedNow })
            recorder.record(
                [
                    Repair(path: "$.data[3].age", expected: "Int", found: .init(kind: .string, excerpt: #""42""#), action: .coerced),
                    Repair(path: "$.data[9].age", expected: "Int", found: .init(kind: .string, excerpt: #""7""#), action: .coerced),
                    Repair(
                        path: "$.data[1].name", expected: "String", found: .init(kind: .null, excerpt: "null"),
                        action: .defaultedBecauseNull),
                ], operation: "GET users")
            let report = recorder.report()
            let json = try JSONEncoder().encode(report)
            #expect(String(decoding: json, as: UTF8.self).contains(#""firstSeen":"2026-11-18T"#))
            #expect(try JSONDecoder().decode(ContractDriftReport.self, from: json) == report)
            let table = report.table().split(separator: "\n").map(String.init)
            #expect(table.count == 3)
            #expect(table[0].hasPrefix("count  operation  path"))
            #expect(table[1].hasPrefix("2      GET users  $.data[*].age   string  coerced"))
            let markdown = report.table(markdown: true).split(separator: "\n").map(String.init)
            #expect(markdown[0] == "| count | operation | path | found | action | first seen | last seen | sample |")
            #expect(markdown[2].hasPrefix("| 2 | GET users | $.data[*].age | string | coerced | 2026-11-18T"))
        }

        @Test("memory stays bounded with 100,000 distinct paths, and what was left out is counted")
        func boundedMemory() {
            let recorder = ContractDriftRecorder(maximumEntries: 1_000, metricsFactory: TestMetrics())
            for index in 0..<100_000 {
                recorder.record(
                    [Repair(path: "$.f\(index)", expected: "Int", found: .init(kind: .string, excerpt: "x"), action: .coerced)],
                    operation: "GET x")
            }
            let report = recorder.report()
            #expect(report.entries.count == 1_000)
            #expect(report.droppedRepairs == 99_000)
            #expect(report.table().hasSuffix("99000 more repairs of kinds the recorder had no room for"))
        }
    }
}
