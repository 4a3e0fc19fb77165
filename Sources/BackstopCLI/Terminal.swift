import Foundation

/// Writes the demo's output, coloured on a terminal and plain when piped.
struct Terminal {
    let colors: Bool

    init() {
        colors = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
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
        print(style.map { paint(text, $0) } ?? text)
    }
}
