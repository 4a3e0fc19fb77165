import BackstopJSON
import Foundation

extension ContractDriftReport {
    /// The report as a table a backend team reads, most frequent first: plain text with aligned
    /// columns, or a Markdown table for an issue tracker. Every text from the network is escaped.
    public func table(markdown: Bool = false) -> String {
        let header = ["count", "operation", "path", "found", "action", "first seen", "last seen", "sample"]
        let format = ISO8601DateFormatter()
        let rows = entries.map { entry in
            [
                String(entry.count), entry.operation, entry.path, entry.found, entry.action,
                format.string(from: entry.firstSeen), format.string(from: entry.lastSeen), entry.sample,
            ]
            .map { UntrustedText.escaped($0) }
        }
        var lines: [String]
        if markdown {
            let cell = { (text: String) in text.replacingOccurrences(of: "|", with: "\\|") }
            lines = ["| " + header.joined(separator: " | ") + " |", "|" + String(repeating: "---|", count: header.count)]
            lines += rows.map { "| " + $0.map { cell($0) }.joined(separator: " | ") + " |" }
        } else {
            let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
            let line = { (row: [String]) in
                zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                    .trimmingCharacters(in: .whitespaces)
            }
            lines = [line(header)] + rows.map(line)
        }
        if entries.isEmpty { lines.append(markdown ? "" : "no repairs recorded") }
        if droppedRepairs > 0 { lines.append("\(droppedRepairs) more repairs of kinds the recorder had no room for") }
        return lines.joined(separator: "\n")
    }
}
