import BadBackend
import Foundation
import Testing

/// Examples/GeneratedClient ships BadBackend's document as its own resource, a copy (a resource
/// bundle keeps a symlink as a link, which breaks there): the copy must be the served document.
@Suite("The generated-client example's openapi.yaml")
struct ExampleDocumentTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("is BadBackend's document, byte for byte (Scripts/generate-openapi-document.py writes both)")
    func sameDocument() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/GeneratedClient/Sources/StudyGroupsAPI/openapi.yaml").standardized
        #expect(try Data(contentsOf: example) == BadBackend.openAPIDocument)
    }
}
