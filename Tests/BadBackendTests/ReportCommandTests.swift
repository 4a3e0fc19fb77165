import Backstop
import BackstopJSON
import Foundation
import Testing

@testable import BackstopCLI

@Suite("backstop report")
struct ReportCommandTests {
    static let fixedNow = Date(timeIntervalSince1970: 1_795_000_000)

    @Test("backstop report renders a saved snapshot, and says why it cannot")
    func reportCommand() throws {
        let recorder = ContractDriftRecorder(now: { Self.fixedNow })
        recorder.record(
            [Repair(path: "$.data.id", expected: "Int", found: .init(kind: .string, excerpt: #""1""#), action: .coerced)],
            operation: "GET groups/{id}")
        let directory = FileManager.default.temporaryDirectory
        func file(_ data: Data) throws -> String {
            let url = directory.appendingPathComponent("drift-\(UUID().uuidString).json")
            try data.write(to: url)
            return url.path
        }
        let saved = try file(JSONEncoder().encode(recorder.report()))
        let table = try ReportCommand.parse([saved]).table()
        #expect(table.contains("GET groups/{id}  $.data.id  string  coerced"))
        #expect(try ReportCommand.parse([saved, "--markdown"]).table().hasPrefix("| count | operation |"))

        func failure(_ arguments: [String]) -> String? {
            do {
                _ = try ReportCommand.parse(arguments).table()
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(failure(["/nonexistent/drift.json"]) == "cannot read '/nonexistent/drift.json': no such file")
        #expect(failure([try file(Data("<html>".utf8))])?.contains("is not JSON") == true)
        #expect(failure([try file(Data(#"{"version":2,"entries":[],"droppedRepairs":0}"#.utf8))])?.contains("newer Backstop") == true)
        #expect(failure([try file(Data(#"{"version":1}"#.utf8))])?.contains("is not a contract-drift report") == true)
    }

    static func file(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("drift-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func failure(_ arguments: [String]) -> String? {
        do {
            _ = try ReportCommand.parse(arguments).table()
            return nil
        } catch {
            return "\(error)"
        }
    }

    static func entry(count: String) -> String {
        #"{"operation":"GET a","path":"$.id","action":"coerced","found":"string","count":"#
            + count + #","firstSeen":"2026-11-18T11:06:40Z","lastSeen":"2026-11-18T11:06:40Z","sample":"x"}"#
    }

    @Test(
        "Counts below zero or too large for a whole number are refused, saying where",
        arguments: [
            (#"{"version":1,"entries":[ENTRY],"droppedRepairs":0}"#, "-5", "at entries[0].count: a count is 0 or more, not -5"),
            (#"{"version":1,"entries":[],"droppedRepairs":-1}"#, "", "at droppedRepairs: a count is 0 or more, not -1"),
            (
                #"{"version":1,"entries":[],"droppedRepairs":0,"droppedOperationLabels":-2}"#, "",
                "at droppedOperationLabels: a count is 0 or more, not -2"
            ),
            (
                #"{"version":1,"entries":[ENTRY],"droppedRepairs":0}"#, "99999999999999999999",
                "at entries[0].count: a count is a whole number from 0 to 9223372036854775807, not 1e+20"
            ),
            (
                #"{"version":1,"entries":[ENTRY],"droppedRepairs":0}"#, "1e300",
                "at entries[0].count: a count is a whole number from 0 to 9223372036854775807, not 1e+300"
            ),
            (
                #"{"version":1,"entries":[ENTRY],"droppedRepairs":0}"#, "2.5",
                "at entries[0].count: a count is a whole number from 0 to 9223372036854775807, not 2.5"
            ),
        ])
    func badCounts(json: String, count: String, reason: String) throws {
        let path = try Self.file(json.replacingOccurrences(of: "ENTRY", with: Self.entry(count: count)))
        let failure = try #require(Self.failure([path]))
        #expect(failure == "'\(path)' is not a contract-drift report: \(reason)")
        #expect(!failure.contains("\n"))
    }

    @Test("A report written before droppedOperationLabels reads as 0 of them; the largest count reads")
    func olderAndLargest() throws {
        let path = try Self.file(#"{"version":1,"entries":["# + Self.entry(count: String(Int.max)) + #"],"droppedRepairs":0}"#)
        #expect(try ReportCommand.parse([path]).table().contains("\(Int.max)  GET a"))
    }

    @Test("--markdown escapes what Markdown or HTML would act on: no tag, link, image or extra column gets through")
    func markdownFromAHostileFile() throws {
        let recorder = ContractDriftRecorder(now: { Self.fixedNow })
        recorder.record(
            [
                Repair(
                    path: "$.a", expected: "Int", found: .init(kind: .string, excerpt: "<img src=x onerror=alert(1)>"), action: .coerced)
            ],
            operation: "GET [x](javascript:alert(1))|`rm -rf`")
        let path = try Self.file(String(decoding: try JSONEncoder().encode(recorder.report()), as: UTF8.self))
        let table = try ReportCommand.parse([path, "--markdown"]).table()
        let row = try #require(table.split(separator: "\n").last)
        #expect(row.hasPrefix(#"| 1 | GET \[x\](javascript:alert(1))\|\`rm -rf\` | \$.a | string | coerced | "#), "\(row)")
        #expect(row.hasSuffix(#" | \<img src=x onerror=alert(1)\> |"#), "\(row)")
        #expect(row.components(separatedBy: " | ").count == 8)
    }

    @Test("A FIFO, a directory or a device as the report is refused at once, by name")
    func notRegularFiles() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        #expect(Self.failure([fifo]) == "cannot read '\(fifo)': it is a FIFO (named pipe), not a regular file")
        #expect(Self.failure(["/tmp"]) == "cannot read '/tmp': it is a directory, not a regular file")
        #expect(Self.failure(["/dev/zero"]) == "cannot read '/dev/zero': it is a device, not a regular file")
    }
}
