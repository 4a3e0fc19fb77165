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
            // Paths and excerpts come from the document: escaped, they cannot act on a terminal.
            let path = UntrustedText.escaped(repair.path)
            var metadata: Logger.Metadata = [
                "path": "\(path)",
                "expected": "\(UntrustedText.escaped(repair.expected))",
                "found": "\(UntrustedText.escaped(repair.found.description))",
                "action": "\(repair.action.rawValue)",
                "model": "\(type)",
            ]
            if let reason = repair.reason { metadata["reason"] = "\(UntrustedText.escaped(reason))" }
            logger.log(level: level, "Repaired \(path) while decoding \(type): \(repair.action.rawValue)", metadata: metadata)
        }
    }
}
