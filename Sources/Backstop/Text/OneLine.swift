import Foundation

/// Text made fit for a one-line log entry: whitespace runs collapsed, long text cut.
enum OneLine {
    static func text(_ text: String, limit: Int) -> String {
        var result = ""
        var count = 0
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            // The limit counts the space a character brings with it, so text cut there never
            // ends in a space, and a space at the limit cannot step over it.
            if count + (pendingSpace ? 1 : 0) >= limit { return result + "…" }
            if pendingSpace {
                result.append(" ")
                count += 1
                pendingSpace = false
            }
            result.append(character)
            count += 1
        }
        return result
    }

    /// The start of a body as text, for error messages; bytes that are not UTF-8 show as `�`.
    static func excerpt(of body: Data, limit: Int = 120) -> String {
        // A character is at most four bytes, and whitespace collapses, so read a little more.
        text(String(decoding: body.prefix(limit * 8), as: UTF8.self), limit: limit)
    }
}
