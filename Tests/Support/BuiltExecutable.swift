import Foundation

/// The executable named `name` that SwiftPM built with the tests, or `nil` when it is not built.
///
/// SwiftPM builds every product of the package into one folder; the test bundle is in it or
/// (on macOS, inside an `.xctest` bundle) a few folders below it, so each candidate's folder
/// and up to three above it are searched.
public func builtExecutable(named name: String) -> URL? {
    let candidates = [URL(fileURLWithPath: CommandLine.arguments[0]), Bundle.main.bundleURL, Bundle.main.executableURL]
    for candidate in candidates.compactMap({ $0 }) {
        var directory = candidate.deletingLastPathComponent()
        for _ in 0..<4 {
            let executable = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: executable.path) { return executable }
            directory = directory.deletingLastPathComponent()
        }
    }
    return nil
}
