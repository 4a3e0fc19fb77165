/// The structure of JSON text, walked byte by byte without parsing it.
package enum JSONStructure {
    /// Visits the bytes of JSON text that are not inside a string, with their offsets: every
    /// bracket, brace, comma, colon, literal, number and space, and each string's opening and
    /// closing quote, but nothing between the quotes (escapes followed, so `\"` does not end
    /// the string). One scanner for the document's depth check and for BackstopOpenAPI's and
    /// BadBackend's byte dirt; text that is not JSON is walked all the same, never refused.
    package static func forEachStructuralByte(in text: some Sequence<UInt8>, _ visit: (_ offset: Int, _ byte: UInt8) -> Void) {
        var inString = false
        var escaped = false
        for (offset, byte) in text.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    visit(offset, byte)
                }
                continue
            }
            if byte == UInt8(ascii: "\"") { inString = true }
            visit(offset, byte)
        }
    }
}
