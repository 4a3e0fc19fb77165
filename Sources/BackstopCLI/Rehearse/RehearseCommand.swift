import ArgumentParser
import Backstop
import BackstopJSON
import BackstopOpenAPI
import Foundation

/// `backstop rehearse`: every operation of an app's document, dirtied every way, through the
/// contract a generated client repairs with; a table of what survives, and a failing exit
/// status when anything does not.
struct RehearseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rehearse",
        abstract: "Rehearse an app's OpenAPI document: what its generated client survives of each misbehaviour.",
        discussion: """
            For every operation of FILE and every misbehaviour (\(DocumentDirt.allCases.map(\.rawValue).joined(separator: ", "))), \
            makes the operation's answer dirty where the document's schema says each value is, \
            and runs it through OpenAPIContract as a generated client with PipelineMiddleware \
            would. Each row says survived (with the repairs made), failed (the JSON path and \
            why), or n/a when the misbehaviour finds nothing to change. The first row of each \
            operation is its clean answer: the document's example, else a value generated from \
            its schema (--seed).

            Faults below the body (statuses, timeouts, resets) are the pipeline's, not the \
            document's: `backstop serve --openapi FILE` serves them.

            Every text from the document is escaped as `backstop report` escapes it, in every format.

            Exit status: 0 when every operation survives everything, 1 when any fails, 2 when \
            FILE cannot be read or is not an OpenAPI document the contract can use.
            """
    )

    @Argument(help: "The app's OpenAPI document: YAML or JSON, OpenAPI 3.0 or 3.1.")
    var file: String

    @Flag(help: "A Markdown table, for an issue tracker or a CI summary.")
    var markdown = false

    @Flag(help: "JSON, for a script: one object per operation and misbehaviour.")
    var json = false

    @Option(help: "Only this operation: its operationId, or METHOD /path as the document writes it. Repeatable.")
    var operation: [String] = []

    @Option(help: "The seed of values generated where the document has no example.")
    var seed: UInt64 = 0

    @Option(help: "The most bytes read from FILE.")
    var maxBytes = InputFile.defaultLimit

    func validate() throws {
        guard !(markdown && json) else { throw ValidationError("--markdown and --json are exclusive") }
        guard maxBytes > 0 else { throw ValidationError("--max-bytes must be at least 1") }
    }

    func run() throws {
        let (text, exitCode) = report()
        if exitCode == 2 {
            FileHandle.standardError.write(Data("backstop rehearse: \(text)\n".utf8))
        } else {
            print(text)
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }

    /// What the command prints and its exit status: the table (or JSON) and 0 or 1, or why
    /// the document cannot be rehearsed and 2.
    func report() -> (text: String, exitCode: Int32) {
        let rows: [RehearsalRow]
        do {
            rows = try self.rows()
        } catch {
            return (error.description, 2)
        }
        return (
            RehearsalRow.render(rows, as: json ? .json : markdown ? .markdown : .text), rows.contains(where: \.outcome.isFailure) ? 1 : 0
        )
    }

    /// Why the document cannot be rehearsed: one line, exit status 2.
    struct Unusable: Error, CustomStringConvertible {
        let description: String
    }

    /// Every row of the table, operation by operation, the clean answer first.
    func rows() throws(Unusable) -> [RehearsalRow] {
        let data: Data
        do {
            data = try InputFile.contents(of: file, limit: maxBytes, limitName: "--max-bytes")
        } catch {
            throw Unusable(description: error.description)
        }
        let rehearsal: DocumentRehearsal
        do {
            rehearsal = try DocumentRehearsal(data: data, source: URL(fileURLWithPath: file).lastPathComponent, seed: seed)
        } catch {
            // Its description escapes the document's text once.
            throw Unusable(description: error.description)
        }
        var operations = rehearsal.operations
        if !operation.isEmpty {
            operations = operations.filter { operation.contains($0.operationID) || operation.contains($0.title) }
            let known = Set(operations.flatMap { [$0.operationID, $0.title] })
            if let unknown = operation.first(where: { !known.contains($0) }) {
                throw Unusable(description: "the document has no operation \(InputFile.quoted(unknown))")
            }
        }
        var rows: [RehearsalRow] = []
        for operation in operations {
            for dirt in [nil] + DocumentDirt.allCases {
                rows.append(RehearsalRow(operation: operation, dirt: dirt, outcome: rehearsal.rehearse(operation, dirt)))
            }
        }
        return rows
    }
}
