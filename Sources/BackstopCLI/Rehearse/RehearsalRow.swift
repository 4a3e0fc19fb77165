import Backstop
import BackstopJSON
import BackstopOpenAPI
import Foundation

/// One operation and misbehaviour of `backstop rehearse`, and what became of it.
struct RehearsalRow {
    let operation: DocumentOperation
    /// `nil` for the clean answer.
    let dirt: DocumentDirt?
    let outcome: RehearsalOutcome

    enum Format {
        case text, markdown, json
    }

    /// `survived`, `failed`, `n/a`, `undescribed`.
    var verdict: String {
        switch outcome {
        case .notApplicable: "n/a"
        case .undescribed: "undescribed"
        case .survived: "survived"
        case .failed: "FAILED"
        }
    }

    /// The repairs made, or where and why the call fails, in one line, escaped.
    var detail: String {
        switch outcome {
        case .notApplicable: return "nothing to change"
        case .undescribed(let reason): return UntrustedText.escaped(reason)
        case .survived(let repairs):
            guard !repairs.isEmpty else { return "no repairs" }
            let shown = repairs.prefix(3).map(\.description).joined(separator: "; ")
            return "\(repairs.count) repair\(repairs.count == 1 ? "" : "s"): \(shown)\(repairs.count > 3 ? "; …" : "")"
        case .failed(let failure):
            return UntrustedText.escaped("\(failure.path) \(failure.problem.rawValue)" + (failure.detail.map { ": \($0)" } ?? ""))
        }
    }

    var columns: [String] {
        [UntrustedText.escaped(operation.operationID), dirt?.rawValue ?? "clean", verdict, detail]
    }

    static let header = ["operation", "misbehaviour", "outcome", "detail"]

    /// The rows as a table, or as JSON, with a summary line after a table.
    static func render(_ rows: [RehearsalRow], as format: Format) -> String {
        let failed = rows.filter(\.outcome.isFailure).count
        let survived = rows.count { if case .survived = $0.outcome { true } else { false } }
        let operations = Set(rows.map(\.operation.operationID)).count
        let summary =
            "\(operations) operation\(operations == 1 ? "" : "s"): \(survived) survived, \(failed) failed, "
            + "\(rows.count - survived - failed) not applicable or undescribed"
        switch format {
        case .json:
            return json(rows, summary: (operations, survived, failed))
        case .markdown:
            var lines = ["| " + header.joined(separator: " | ") + " |", "|" + String(repeating: "---|", count: header.count)]
            lines += rows.map { "| " + $0.columns.map(ContractDriftReport.markdownCell).joined(separator: " | ") + " |" }
            return (lines + ["", summary]).joined(separator: "\n")
        case .text:
            let table = [header] + rows.map(\.columns)
            let widths = header.indices.dropLast().map { column in table.map { $0[column].count }.max() ?? 0 }
            let lines = table.map { row in
                (zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) } + [row[row.count - 1]])
                    .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
            }
            return (lines + ["", summary]).joined(separator: "\n")
        }
    }

    private struct Entry: Encodable {
        let operation: String
        let method: String
        let path: String
        let misbehaviour: String
        let outcome: String
        let repairs: [String]?
        let failure: Failure?
        let reason: String?
    }

    private struct Failure: Encodable {
        let path: String
        let problem: String
        let detail: String?
    }

    private struct Document: Encodable {
        let operations: Int
        let survived: Int
        let failed: Int
        let results: [Entry]
    }

    private static func json(_ rows: [RehearsalRow], summary: (operations: Int, survived: Int, failed: Int)) -> String {
        let escaped = UntrustedText.escaped
        let entries = rows.map { row in
            var repairs: [String]?
            var failure: Failure?
            var reason: String?
            switch row.outcome {
            case .survived(let made): repairs = made.map(\.description)
            case .failed(let error):
                failure = Failure(path: escaped(error.path), problem: error.problem.rawValue, detail: error.detail.map(escaped))
            case .undescribed(let why): reason = escaped(why)
            case .notApplicable: break
            }
            return Entry(
                operation: escaped(row.operation.operationID), method: row.operation.method, path: escaped(row.operation.path),
                misbehaviour: row.dirt?.rawValue ?? "clean",
                outcome: row.verdict == "FAILED" ? "failed" : row.verdict, repairs: repairs, failure: failure, reason: reason)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(operations: summary.operations, survived: summary.survived, failed: summary.failed, results: entries)
        // Plain strings and numbers always encode.
        return (try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
