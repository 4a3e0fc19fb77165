import BackstopTestSupport
import Foundation
import Testing

/// The `HostileProbe` executable, run in a child process: one call against a server, its
/// outcome and peak memory printed as JSON.
struct HostileProbe {
    /// What the probe printed.
    struct Report: Decodable {
        var outcome: String
        var baselineKiB: Int
        var peakKiB: Int
        var limit: Int

        /// How much the peak rose during the probe call.
        var growthKiB: Int { peakKiB - baselineKiB }
    }

    /// How the child process ended.
    struct Ended {
        var status: Int32
        var reason: Process.TerminationReason
        var output: String
        var report: Report? { try? JSONDecoder().decode(Report.self, from: Data(output.utf8)) }
    }

    /// The executable beside the test bundle, where SwiftPM builds every product of the package.
    static var executable: URL? { builtExecutable(named: "HostileProbe") }

    /// Runs the probe with `transport` against `url` and waits for it to end.
    static func run(_ transport: String, _ url: URL, limit: Int? = nil) async throws -> Ended {
        try await run(arguments: [transport, url.absoluteString] + (limit.map { [String($0)] } ?? []))
    }

    /// Runs the probe with `arguments` and waits for it to end.
    static func run(arguments: [String]) async throws -> Ended {
        let executable = try #require(executable, "HostileProbe is built with the tests: swift build --build-tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // A crash is expected of some probes: no backtrace, which takes seconds to write.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { process in
                let data = output.fileHandleForReading.readDataToEndOfFile()
                continuation.resume(
                    returning: Ended(
                        status: process.terminationStatus, reason: process.terminationReason,
                        output: String(decoding: data, as: UTF8.self)))
            }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
