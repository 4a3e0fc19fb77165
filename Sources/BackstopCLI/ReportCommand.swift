import ArgumentParser
import Backstop
import BackstopJSON
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

            Every text from the file is escaped: control and bidirectional characters always, \
            and with --markdown every character Markdown or HTML would act on, so a report \
            cannot add tags, links or columns to an issue tracker.

            Exit status: 0 for a table, 2 when FILE cannot be read (not a regular file, or over \
            16 MiB), is not JSON, is not a report (a count below zero or too large for a whole \
            number included), or was written by a newer version of Backstop.
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
        let data: Data
        do {
            data = try InputFile.contents(of: file, limit: InputFile.defaultLimit)
        } catch {
            throw Unreadable(description: error.description)
        }
        let name = InputFile.quoted(file)
        guard (try? JSONSerialization.jsonObject(with: data)) != nil else {
            throw Unreadable(description: "\(name) is not JSON")
        }
        struct Version: Decodable { var version: Int }
        guard let version = try? JSONDecoder().decode(Version.self, from: data) else {
            throw Unreadable(description: "\(name) is not a contract-drift report: it has no version")
        }
        guard version.version <= ContractDriftReport.currentVersion else {
            throw Unreadable(
                description:
                    "\(name) was written in format \(version.version) by a newer Backstop; this one reads up to \(ContractDriftReport.currentVersion)"
            )
        }
        do {
            return try JSONDecoder().decode(ContractDriftReport.self, from: data).table(markdown: markdown)
        } catch let error as DecodingError {
            throw Unreadable(description: "\(name) is not a contract-drift report: \(Self.reason(error))")
        } catch {
            throw Unreadable(description: "\(name) is not a contract-drift report: \(UntrustedText.escaped("\(error)"))")
        }
    }

    /// Where in the file and what is wrong there, in one line: `at entries[0].count: a count is 0 or more, not -3`.
    private static func reason(_ error: DecodingError) -> String {
        let (path, what): ([any CodingKey], String) =
            switch error {
            case .typeMismatch(let type, let context): (context.codingPath, "expected \(type)")
            case .valueNotFound(let type, let context): (context.codingPath, "expected \(type), found null")
            case .keyNotFound(let key, let context): (context.codingPath + [key], "missing")
            case .dataCorrupted(let context):
                // The parser's own reason (a number too large for a count, say) is underneath.
                (context.codingPath, context.debugDescription + (context.underlyingError.map { ": \($0)" } ?? ""))
            @unknown default: ([], "\(error)")
            }
        let location = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        let text = location.isEmpty ? what : "at \(location.drop { $0 == "." }): \(what)"
        return UntrustedText.escaped(text)
    }
}
