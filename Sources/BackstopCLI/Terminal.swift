import Foundation

/// Writes the demo's output, coloured on a terminal and plain when piped.
struct Terminal: Sendable {
    let colors: Bool
    private let write: @Sendable (String) -> Void

    /// Standard output, coloured when it is a terminal and `NO_COLOR` is not set.
    init() {
        colors = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        write = { print($0) }
    }

    /// Lines handed to `write`, for tests that read what the demo says.
    init(colors: Bool, write: @escaping @Sendable (String) -> Void) {
        self.colors = colors
        self.write = write
    }

    enum Style: String {
        case title = "1;36"
        case heading = "1"
        case good = "32"
        case bad = "31"
        case note = "33"
        case dim = "2"
    }

    func paint(_ text: String, _ style: Style) -> String {
        colors ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    func line(_ text: String = "", _ style: Style? = nil) {
        write(style.map { paint(text, $0) } ?? text)
    }
}
