import BackstopTestSupport
import Foundation
import Testing

/// The `SQLiteStoreProbe` executable, run in a child process: the store saved to, read back,
/// or killed while it writes.
enum StoreProbe {
    /// What `check` printed.
    struct Check: Decodable, Equatable {
        var found: Int
        var intact: Int
        var movedAside: Bool
    }

    /// The executable beside the test bundle, where SwiftPM builds every product of the package.
    static var executable: URL? { builtExecutable(named: "SQLiteStoreProbe") }

    /// A started probe, its output read line by line.
    static func start(_ arguments: [String]) throws -> (Process, FileHandle) {
        let executable = try #require(executable, "SQLiteStoreProbe is built with the tests: swift build --build-tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        try process.run()
        return (process, output.fileHandleForReading)
    }

    /// Runs the probe to its end; returns its exit status and what it printed.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let (process, output) = try start(arguments)
        let data = await Self.readToEnd(output)
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Reads `handle` to its end on a thread of its own, not the test's.
    static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: handle.readDataToEndOfFile()) }
        }
    }

    /// Reads `handle` until a line satisfies `done`, or the output ends; returns that line.
    static func readLines(_ handle: FileHandle, until done: @escaping @Sendable (String) -> Bool) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var buffer = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { return continuation.resume(returning: nil) }
                    buffer.append(chunk)
                    while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
                        buffer.removeSubrange(buffer.startIndex...end)
                        if done(line) { return continuation.resume(returning: line) }
                    }
                }
            }
        }
    }

    /// `check`'s report on answers `first..<first+count` of `file`.
    static func check(_ file: URL, first: Int, count: Int, bodyBytes: Int) async throws -> Check {
        let (status, output) = try await run(["check", file.path, "\(first)", "\(count)", "\(bodyBytes)"])
        #expect(status == 0, "\(output)")
        return try JSONDecoder().decode(Check.self, from: Data(output.utf8))
    }
}
