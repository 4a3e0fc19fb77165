import BackstopTestSupport
import BadBackend
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("BadBackend's OpenAPI document")
struct DocumentTests {
    /// The document as kept in the repository, which the generator plugin reads through this
    /// target's `openapi.yaml` symlink.
    static let kept: Data? = try? Data(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("openapi.yaml"))

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("GET /openapi.yaml serves the document kept in the repository, byte for byte")
    func servedIsKept() async throws {
        let kept = try #require(Self.kept)
        #expect(BadBackend.openAPIDocument == kept)
        try await withBackend { _, url in
            let (body, response) = try await URLSession.shared.data(from: url.appendingPathComponent("openapi.yaml"))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/yaml")
            #expect(body == kept)
            #expect(String(decoding: body.prefix(15), as: UTF8.self) == "openapi: 3.1.0\n")
        }
    }
}
