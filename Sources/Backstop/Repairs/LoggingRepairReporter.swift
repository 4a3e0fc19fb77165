import BackstopJSON
import Logging

/// A `RepairReporter` (from BackstopJSON) that writes each repair to a swift-log `Logger`
/// at `warning`.
///
/// Set it as a decoder's reporter (`ResilientJSONDecoder(reporter: LoggingRepairReporter())`)
/// so that a backend that breaks its contract shows up in the logs. Each repair is one log
/// line with its path, expected type, what was found and what was done, as metadata too.
public struct LoggingRepairReporter: RepairReporter {
    /// Where the repair lines go.
    public let logger: Logger
    /// The level of each repair line.
    public let level: Logger.Level

    /// A reporter that writes each repair as one line.
    ///
    /// - Parameters:
    ///   - logger: Where the lines go; label `backstop.repairs` unless given.
    ///   - level: The level of each line; `warning` unless given.
    public init(logger: Logger = Logger(label: "backstop.repairs"), level: Logger.Level = .warning) {
        self.logger = logger
        self.level = level
    }

    public func report(_ repairs: [Repair], decoding type: Any.Type) {
        for repair in repairs {
            var metadata: Logger.Metadata = [
                "path": "\(repair.path)",
                "expected": "\(repair.expected)",
                "found": "\(repair.found)",
                "action": "\(repair.action.rawValue)",
                "model": "\(type)",
            ]
            if let reason = repair.reason { metadata["reason"] = "\(reason)" }
            logger.log(level: level, "Repaired \(repair.path) while decoding \(type): \(repair.action.rawValue)", metadata: metadata)
        }
    }
}
