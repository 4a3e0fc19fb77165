import Foundation
import Testing

/// The order of the stages is written once, in `CallRunner.swift`; every doc comment and
/// article that lists the stages must list the same ones in the same order.
@Suite("The stage order is written once")
struct StageOrderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The stages as the runner runs them: its `Stage n, name:` lines, in file order.
    static func runnerStages() throws -> [String] {
        let source = try read("Sources/Backstop/Pipeline/CallRunner.swift")
        let stages = source.matches(of: /Stage (\d+), ([^:]+):/).map { (Int($0.output.1) ?? 0, String($0.output.2).lowercased()) }
        #expect(stages.map(\.0) == Array(1...stages.count), "the runner's stages are numbered in file order")
        return stages.map(\.1)
    }

    /// Other words the prose uses for a stage.
    static let aliases: [String: [String]] = [
        "observation": ["observation", "logging"],
        "retry": ["retry"],
        "transport": ["transport"],
    ]

    /// Whether `text` names every stage, in order.
    static func namesInOrder(_ stages: [String], in text: String) -> [String] {
        let text = text.lowercased()
        var position = text.startIndex
        var missing: [String] = []
        for stage in stages {
            let names = aliases[stage] ?? [stage]
            let found = names.compactMap { text.range(of: $0, range: position..<text.endIndex) }.min { $0.lowerBound < $1.lowerBound }
            guard let found else {
                missing.append(stage)
                continue
            }
            position = found.upperBound
        }
        return missing
    }

    static func section(of text: String, from start: String, to end: String) throws -> String {
        let from = try #require(text.range(of: start), "no \(start)")
        let to = try #require(text.range(of: end, range: from.upperBound..<text.endIndex), "no \(end)")
        // Prose wraps: one line of words, without the comment markers.
        return text[from.lowerBound..<to.lowerBound].replacing("///", with: " ").split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
    }

    @Test func theRunnerHasFourteenStagesFromObservationToTheTransport() throws {
        let stages = try Self.runnerStages()
        #expect(stages.first == "observation")
        #expect(stages.last == "transport")
        #expect(stages.count == 14)
    }

    @Test func clientPipelineListsTheRunnersStages() throws {
        let source = try Self.read("Sources/Backstop/Pipeline/ClientPipeline.swift")
        let listed = source.matches(of: /\/\/\/ \d+\. \*\*([^*]+)\*\*/).map { String($0.output.1).lowercased() }
        #expect(listed == (try Self.runnerStages()))
    }

    @Test(arguments: [
        ("Sources/Backstop/Client/APIClient.swift", "Every call goes through the stages", "Each response body"),
        ("Sources/Backstop/Backstop.docc/SurvivingAnOutage.md", "### The order of the stages", "The breaker sits inside retry"),
    ])
    func everyOtherListNamesTheRunnersStagesInOrder(path: String, from start: String, to end: String) throws {
        let text = try Self.section(of: try Self.read(path), from: start, to: end)
        let missing = Self.namesInOrder(try Self.runnerStages(), in: text)
        #expect(missing == [], "\(path) lists the stages out of order, or leaves some out")
    }
}
