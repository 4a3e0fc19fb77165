import Foundation

@available(macOS 14, iOS 17, tvOS 17, *)
extension BadBackend {
    /// BadBackend's OpenAPI 3.1 document, `openapi.yaml`, as kept in the repository and served
    /// at `GET /openapi.yaml`; `nil` when the binary was copied without its resource bundle.
    ///
    /// It describes every resource in each envelope style, clean (see <doc:Resources>); the
    /// dirty-data scenarios send what it does not allow, so a client generated from it by
    /// swift-openapi-generator fails on them unless something repairs the body first.
    public static let openAPIDocument: Data? = DocumentBundle.badBackend.flatMap { bundle in
        bundle.url(forResource: "openapi", withExtension: "yaml").flatMap { try? Data(contentsOf: $0) }
    }
}

/// BadBackend's resource bundle, found where SwiftPM and Xcode put it, or `nil`.
///
/// `Bundle.module` stops the process when the bundle is missing (a binary copied without its
/// resources), and serving a document must never do that: this looks in the same places, as
/// `Backstop`'s own catalog does, and the server answers that the document is not installed.
private enum DocumentBundle {
    static let badBackend: Bundle? = {
        let names = ["Backstop_BadBackend.bundle", "Backstop_BadBackend.resources"]
        let code = Bundle(for: Token.self)
        let folders = [
            Bundle.main.resourceURL,  // apps
            Bundle.main.bundleURL,  // Linux tests and tools
            Bundle.main.executableURL?.deletingLastPathComponent(),  // `swift run`
            code.resourceURL,
            code.bundleURL.deletingLastPathComponent(),  // beside an .xctest bundle
        ].compactMap { $0 }
        for folder in folders {
            for name in names {
                if let bundle = Bundle(url: folder.appendingPathComponent(name)) { return bundle }
            }
        }
        return nil
    }()

    private final class Token {}
}
