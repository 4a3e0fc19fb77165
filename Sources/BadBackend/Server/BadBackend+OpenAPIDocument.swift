import Foundation

@available(macOS 14, iOS 17, tvOS 17, *)
extension BadBackend {
    /// BadBackend's OpenAPI 3.1 document, `openapi.yaml`, as kept in the repository and served
    /// at `GET /openapi.yaml`.
    ///
    /// It describes every resource in each envelope style, clean (see <doc:Resources>); the
    /// dirty-data scenarios send what it does not allow, so a client generated from it by
    /// swift-openapi-generator fails on them unless something repairs the body first.
    ///
    /// It is compiled into the binary, not read from a resource bundle, so a `backstop` binary
    /// copied anywhere serves it too.
    public static let openAPIDocument = Data(openAPIDocumentText.utf8)
}
