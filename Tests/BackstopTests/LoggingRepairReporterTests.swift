import Backstop
import Foundation
import Logging
import Testing

/// A repair must reach the logs at `warning` without the caller asking for it.
@Suite struct LoggingRepairReporterTests {
    /// Keeps what a `Logger` writes so the test can read it back.
    final class CapturedLogs: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] = []
        var entries: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] {
            lock.withLock { stored }
        }
        func append(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata) {
            lock.withLock { stored.append((level, message, metadata)) }
        }
    }

    struct CapturingHandler: LogHandler {
        let logs: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            logs.append(event.level, event.message.description, event.metadata ?? [:])
        }
    }

    struct Product: Decodable {
        let id: Int
        let tags: [String]
    }

    @Test func eachRepairIsOneWarningWithItsPathAndAction() throws {
        let logs = CapturedLogs()
        let logger = Logger(label: "test") { _ in CapturingHandler(logs: logs) }
        let decoder = ResilientJSONDecoder(reporter: LoggingRepairReporter(logger: logger))

        let product = try decoder.decode(Product.self, from: Data(#"{"id":"7"}"#.utf8))

        #expect(product.id == 7)
        let entries = logs.entries
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.level == .warning })
        #expect(entries.map { $0.metadata["path"]?.description } == ["$.id", "$.tags"])
        #expect(entries.map { $0.metadata["action"]?.description } == ["coerced", "defaultedBecauseMissing"])
        #expect(entries[0].message.contains("Product"))
    }

    @Test func cleanDataLogsNothing() throws {
        let logs = CapturedLogs()
        let logger = Logger(label: "test") { _ in CapturingHandler(logs: logs) }
        let decoder = ResilientJSONDecoder(reporter: LoggingRepairReporter(logger: logger))
        _ = try decoder.decode(Product.self, from: Data(#"{"id":7,"tags":[]}"#.utf8))
        #expect(logs.entries.isEmpty)
    }
}
