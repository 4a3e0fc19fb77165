import ArgumentParser
import Backstop
import Foundation

/// `backstop report`: renders a contract-drift snapshot as a table a backend team reads.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render a contract-drift report (a ContractDriftReport saved as JSON) as a table.",
        discussion: """
            FILE is what an app saved or uploaded of ContractDriftRecorder.report(): every \
            repair by operation, field, what was found and what was done, with counts and first \
            and last seen. The table lists the most frequent first.

            Exit status: 0 for a table, 2 when FILE cannot be read, is not JSON, is not a report, \
            or was written by a newer version of Backstop.
            """
    )

    @Argument(help: "A ContractDriftReport saved as JSON.")
    var file: String

    @Flag(help: "A Markdown table, for an issue tracker.")
    var markdown = false

    /// Why the file cannot be rendered: one line, exit status 2.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    func run() throws {
        let table: String
        do {
            table = try self.table()
        } catch {
            FileHandle.standardError.write(Data("backstop report: \(error)\n".utf8))
            throw ExitCode(2)
        }
        print(table)
    }

    /// The table for `file`.
    func table() throws(Unreadable) -> String {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw Unreadable(description: "cannot read '\(file)': no such readable file")
        }
        guard (try? JSONSerialization.jsonObject(with: data)) != nil else {
            throw Unreadable(description: "'\(file)' is not JSON")
        }
        struct Version: Decodable { var version: Int }
        guard let version = try? JSONDecoder().decode(Version.self, from: data) else {
            throw Unreadable(description: "'\(file)' is not a contract-drift report: it has no version")
        }
        guard version.version <= ContractDriftReport.currentVersion else {
            throw Unreadable(
                description:
                    "'\(file)' was written in format \(version.version) by a newer Backstop; this one reads up to \(ContractDriftReport.currentVersion)"
            )
        }
        do {
            return try JSONDecoder().decode(ContractDriftReport.self, from: data).table(markdown: markdown)
        } catch {
            throw Unreadable(description: "'\(file)' is not a contract-drift report: \(error)")
        }
    }
}
