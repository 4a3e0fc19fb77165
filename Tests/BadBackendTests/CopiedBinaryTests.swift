import BackstopTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `backstop` binary copied alone into an empty folder, as a user copies it onto a build
/// machine: `serve` still answers `GET /openapi.yaml` with the document, which no resource
/// bundle beside it has to supply.
@Suite("backstop copied alone", .timeLimit(.minutes(1)))
struct CopiedBinaryTests {
    /// `openapi.yaml` as kept in the repository.
    static let kept = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/BadBackend/Resources/openapi.yaml").standardized

    /// The `backstop` executable SwiftPM built beside the test bundle.
    static var built: URL? { builtExecutable(named: "backstop") }

    @Test("serve answers GET /openapi.yaml with the document kept in the repository")
    func servesTheDocument() async throws {
        let built = try #require(Self.built, "backstop is built with the tests: swift build --build-tests")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("copied-backstop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("backstop")
        try FileManager.default.copyItem(at: built, to: copy)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["backstop"])

        let process = Process()
        process.executableURL = copy
        process.arguments = ["serve", "--port", "0"]
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }

        let url = try #require(Self.listeningURL(output.fileHandleForReading), "serve printed where it listens")
        let (body, response) = try await URLSession.shared.data(from: url.appendingPathComponent("openapi.yaml"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(body == (try Data(contentsOf: Self.kept)))
    }

    /// The URL in serve's first line, `BadBackend listening on http://127.0.0.1:<port>`, read as
    /// it is written; `nil` if the process ends first.
    static func listeningURL(_ output: FileHandle) -> URL? {
        var text = ""
        while true {
            let data = output.availableData
            if data.isEmpty { return nil }
            text += String(decoding: data, as: UTF8.self)
            if let line = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first(where: {
                $0.hasPrefix("BadBackend listening on ")
            }) {
                return URL(string: String(line.dropFirst("BadBackend listening on ".count)))
            }
        }
    }
}
