import BackstopJSON
import Foundation

extension ContractDriftReport {
    /// The report as a table a backend team reads, most frequent first: plain text with aligned
    /// columns, or a Markdown table for an issue tracker.
    ///
    /// Every text from the network or the report is escaped: control and bidirectional
    /// characters as `UntrustedText.escaped(_:)` writes them; in Markdown also every character
    /// Markdown or HTML would act on (backslash, backtick, `*`, `_`, `~`, `[`, `]`, `<`, `>`,
    /// `&`, `!`, `|`, `$`, `#`) gets a backslash, so `<img onerror=…>`, `[x](javascript:…)` or a
    /// pipe in a sample reads as the text it is and never becomes a tag, a link or another column.
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
            lines = ["| " + header.joined(separator: " | ") + " |", "|" + String(repeating: "---|", count: header.count)]
            lines += rows.map { "| " + $0.map(Self.markdownCell).joined(separator: " | ") + " |" }
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
        if droppedOperationLabels > 0 {
            lines.append(
                "\(droppedOperationLabels) repairs counted in the metric under operation \"\(ContractDriftRecorder.otherOperation)\": "
                    + "the recorder had counters for its most operations")
        }
        return lines.joined(separator: "\n")
    }

    /// The characters Markdown (CommonMark and GitHub's: tables, strikethrough, math) or HTML
    /// act on in a table cell; each gets a backslash, which CommonMark allows before any ASCII
    /// punctuation.
    private static let markdownActive: Set<Character> = ["\\", "`", "*", "_", "~", "[", "]", "<", ">", "&", "!", "|", "$", "#"]

    /// `text`, already one line, as a Markdown table cell that reads as exactly that text; `backstop
    /// rehearse` writes its cells with it too.
    package static func markdownCell(_ text: String) -> String {
        guard text.contains(where: markdownActive.contains) else { return text }
        var cell = ""
        cell.reserveCapacity(text.utf8.count + 8)
        for character in text {
            if markdownActive.contains(character) { cell.append("\\") }
            cell.append(character)
        }
        return cell
    }
}
