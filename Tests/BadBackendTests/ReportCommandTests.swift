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
        #expect(failure(["/nonexistent/drift.json"])?.contains("no such readable file") == true)
        #expect(failure([try file(Data("<html>".utf8))])?.contains("is not JSON") == true)
        #expect(failure([try file(Data(#"{"version":2,"entries":[],"droppedRepairs":0}"#.utf8))])?.contains("newer Backstop") == true)
        #expect(failure([try file(Data(#"{"version":1}"#.utf8))])?.contains("is not a contract-drift report") == true)
    }
}
