import Foundation

/// Backstop's resource bundle, found where SwiftPM and Xcode put it, or `nil`.
///
/// `Bundle.module` stops the process when the bundle is missing (a binary copied without
/// its resources), and showing an error message must never do that; so this looks in the
/// same places and lets the catalog fall back to English compiled into Backstop instead.
enum ResourceBundle {
    static let backstop: Bundle? = {
        let names = ["Backstop_Backstop.bundle", "Backstop_Backstop.resources"]
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
