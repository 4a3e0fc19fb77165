import BadBackend
import Foundation

/// The documents in Tests/Documents, written for these tests: a shop (3.0 YAML), a bank whose
/// answers carry an app-wide code (3.1 JSON), and 300 operations from Scripts/generate-large-openapi.py.
enum TestDocuments {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Documents")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }

    /// The document `name`, served.
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func served(_ name: String, seed: UInt64 = 0, scenario: String? = nil) throws -> BadBackend.ServedDocument {
        try BadBackend.ServedDocument(data: data(name), source: name, seed: seed, scenario: scenario)
    }

    /// Runs a BadBackend serving `document` around `body`.
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func serving<Result>(
        _ document: BadBackend.ServedDocument, configuration: BadBackend.Configuration = .init(),
        clock: some Clock<Duration> = ContinuousClock(), _ body: (URL, BadBackend) async throws -> Result
    ) async throws -> Result {
        var configuration = configuration
        configuration.document = document
        let backend = BadBackend(configuration: configuration, clock: clock)
        return try await backend.withRunning { try await body($0, backend) }
    }

    /// Writes `text` to a fresh temporary file named `name` and returns its path.
    static func file(_ text: String, name: String = "openapi.yaml") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("documents-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}
