import BackstopJSON
import Foundation

/// Text from the network made fit for a one-line log entry or `description`: runs of spaces
/// collapsed, control and bidirectional scalars escaped as ``UntrustedText/escaped(_:)``
/// writes them (a line break too: a line stays one line), long text cut.
package enum OneLine {
    package static func text(_ text: String, limit: Int) -> String {
        var result = String.UnicodeScalarView()
        var count = 0
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let unsafe = UntrustedText.isUnsafe(scalar)
            if scalar.properties.isWhitespace && !unsafe {
                pendingSpace = !result.isEmpty
                continue
            }
            let piece = unsafe || scalar == "\\" ? UntrustedText.escaped(String(scalar)).unicodeScalars : nil
            let length = piece?.count ?? 1
            // The limit counts what is written, escapes whole, and the space a scalar brings with
            // it, so text cut there never ends in a space or half an escape.
            if count + (pendingSpace ? 1 : 0) + length > limit { return String(result) + "…" }
            if pendingSpace {
                result.append(" ")
                count += 1
                pendingSpace = false
            }
            if let piece { result.append(contentsOf: piece) } else { result.append(scalar) }
            count += length
        }
        return String(result)
    }

    /// The start of a body as text, for error messages; bytes that are not UTF-8 show as `�`.
    package static func excerpt(of body: Data, limit: Int = 120) -> String {
        // A character is at most four bytes, and whitespace collapses, so read a little more.
        text(String(decoding: body.prefix(limit * 8), as: UTF8.self), limit: limit)
    }
}
