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
            #expect(markdown[2].hasPrefix(#"| 2 | GET users | \$.data\[\*\].age | string | coerced | 2026-11-18T"#))
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

        @Test("300,000 distinct operations: counters for the first 500, the rest under other, counted as dropped labels")
        func boundedOperations() throws {
            let metrics = TestMetrics()
            let recorder = ContractDriftRecorder(metricsFactory: metrics, now: { Self.fixedNow })
            #expect(recorder.maximumOperations == 500)
            for index in 0..<300_000 {
                recorder.record(
                    [
                        Repair(path: "$.id", expected: "Int", found: .init(kind: .string, excerpt: "x"), action: .coerced),
                        Repair(
                            path: "$.name", expected: "String", found: .init(kind: .null, excerpt: "null"), action: .defaultedBecauseNull),
                    ], operation: "GET users/\(index)")
            }
            let counters = metrics.counters(label: "backstop_contract_drift_total")
            // 500 operations with two actions each, and the two actions of "other".
            #expect(counters.count == 1_002)
            let other = counters.filter { $0.dimensions.contains { $0 == ("operation", ContractDriftRecorder.otherOperation) } }
            #expect(other.map(\.totalValue) == [299_500, 299_500])
            #expect(counters.map(\.totalValue).reduce(0, +) == 600_000)
            let report = recorder.report()
            #expect(report.entries.count == 1_000)
            #expect(report.droppedRepairs == 599_000)
            #expect(report.droppedOperationLabels == 599_000)
            #expect(
                report.table().hasSuffix(
                    #"599000 repairs counted in the metric under operation "other": the recorder had counters for its most operations"#))

            // An operation that has counters keeps them after the others came.
            recorder.record(
                [Repair(path: "$.id", expected: "Int", found: .init(kind: .string, excerpt: "x"), action: .coerced)],
                operation: "GET users/7")
            #expect(recorder.report().droppedOperationLabels == 599_000)
            recorder.reset()
            #expect(recorder.report() == ContractDriftReport(entries: []))
            let decoded = try JSONDecoder().decode(ContractDriftReport.self, from: JSONEncoder().encode(report))
            #expect(decoded == report)
        }

        @Test("an operation name or a path longer than 256 scalars is cut there, and long ones that start alike share an entry")
        func boundedText() {
            let recorder = ContractDriftRecorder(metricsFactory: TestMetrics())
            let long = String(repeating: "a", count: 300)
            for suffix in ["x", "y"] {
                recorder.record(
                    [Repair(path: "$." + long + suffix, expected: "Int", found: .init(kind: .string, excerpt: "x"), action: .coerced)],
                    operation: "GET " + long + suffix)
            }
            let entries = recorder.report().entries
            #expect(entries.count == 1)
            #expect(entries.first?.count == 2)
            #expect(entries.first?.operation == "GET " + String(repeating: "a", count: 252) + "…")
            #expect(entries.first?.path == "$." + String(repeating: "a", count: 254) + "…")
            // A grapheme of one letter and a million combining marks is cut too.
            let grapheme = "e" + String(repeating: "\u{301}", count: 1_000_000)
            recorder.record(
                [Repair(path: "$.x", expected: "Int", found: .init(kind: .string, excerpt: "x"), action: .coerced)], operation: grapheme)
            #expect(recorder.report().entries.contains { $0.operation.unicodeScalars.count == 257 })
        }

        @Test("the Markdown table escapes what Markdown or HTML would act on, and reads back as the text it was")
        func markdownEscapes() throws {
            let hostile = [
                "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "a|b", "`code`", "**bold** _it_ ~~gone~~",
                "&lt;script&gt;", "![i](http://x/i.png)", "$x$", "\\|",
            ]
            let entries = hostile.enumerated().map { index, text in
                ContractDriftReport.Entry(
                    operation: text, path: "$." + text, action: "coerced", found: "string", count: index + 1,
                    firstSeen: Self.fixedNow, lastSeen: Self.fixedNow, sample: text)
            }
            let rows = ContractDriftReport(entries: entries).table(markdown: true).split(separator: "\n").dropFirst(2)
            #expect(rows.count == hostile.count)
            #expect(
                rows.first
                    == #"| 9 | \\\\\| | \$.\\\\\| | string | coerced | 2026-11-18T11:06:40Z | 2026-11-18T11:06:40Z | \\\\\| |"#)
            #expect(
                rows.contains(
                    #"| 1 | \<img src=x onerror=alert(1)\> | \$.\<img src=x onerror=alert(1)\> | string | coerced | 2026-11-18T11:06:40Z | 2026-11-18T11:06:40Z | \<img src=x onerror=alert(1)\> |"#
                ))
            for (row, text) in zip(rows.reversed(), hostile) {
                // Every active character has its backslash: removing them gives the text back, three times a row.
                var cells = row.dropFirst(2).dropLast(2).components(separatedBy: " | ")
                cells = cells.map { cell in
                    var plain = ""
                    var escaping = false
                    for character in cell {
                        if !escaping, character == "\\" {
                            escaping = true
                            continue
                        }
                        #expect(escaping || !"`*_~[]<>&!|$#".contains(character), "\(row)")
                        escaping = false
                        plain.append(character)
                    }
                    return plain
                }
                #expect(cells[1] == UntrustedText.escaped(text))
                #expect(cells[7] == UntrustedText.escaped(text))
            }
        }
    }
}
