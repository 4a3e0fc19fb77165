import Backstop
import Foundation
import InMemoryLogging
import Logging
import Testing

/// A repair must reach the logs at `warning` once a `LoggingRepairReporter` is the decoder's reporter.
@Suite struct LoggingRepairReporterTests {
    struct Product: Decodable {
        let id: Int
        let tags: [String]
    }

    @Test func eachRepairIsOneWarningWithItsPathAndAction() throws {
        let logs = InMemoryLogHandler()
        let decoder = ResilientJSONDecoder(reporter: LoggingRepairReporter(logger: Logger(label: "test") { _ in logs }))

        let product = try decoder.decode(Product.self, from: Data(#"{"id":"7"}"#.utf8))

        #expect(product.id == 7)
        let entries = logs.entries
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.level == .warning })
        #expect(entries.map { $0.metadata["path"]?.description } == ["$.id", "$.tags"])
        #expect(entries.map { $0.metadata["action"]?.description } == ["coerced", "defaultedBecauseMissing"])
        #expect(entries[0].message.description.contains("Product"))
    }

    @Test func cleanDataLogsNothing() throws {
        let logs = InMemoryLogHandler()
        let decoder = ResilientJSONDecoder(reporter: LoggingRepairReporter(logger: Logger(label: "test") { _ in logs }))
        _ = try decoder.decode(Product.self, from: Data(#"{"id":7,"tags":[]}"#.utf8))
        #expect(logs.entries.isEmpty)
    }
}
