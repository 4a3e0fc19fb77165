/// The lossless coercions of ``DecodingPolicy``, each rule written once.
///
/// The decoder applies them to the bytes on the tape when the policy allows; the property
/// wrappers apply them whatever the decoder; Backstop's envelope reader applies them to
/// envelope fields. So `"+42"` is refused, and `"42"` accepted, everywhere alike.
package enum Coercion {
    // MARK: Bool (`DecodingPolicy.boolsFromNumbersAndStrings`)

    /// `true`, `false`, `1` and `0`, written exactly so: the text of a number or of a string.
    package static func bool(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
        switch text.count {
        case 1: text[0] == UInt8(ascii: "1") ? true : text[0] == UInt8(ascii: "0") ? false : nil
        case 4 where text.elementsEqual("true".utf8): true
        case 5 where text.elementsEqual("false".utf8): false
        default: nil
        }
    }

    /// The same rule for text a decoder has already read.
    package static func bool(_ text: String) -> Bool? {
        var text = text
        return text.withUTF8 { bool($0) }
    }

    // MARK: Numbers from text (`DecodingPolicy.numbersFromStrings`)

    /// Whether `text` is exactly a JSON number (`42`, `-12.5`, `1e3`): no whitespace, `+`,
    /// leading zeros, hex, `nan` or `inf`, so reading it as a number loses nothing.
    package static func isNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        JSONString.numberShape(text) != nil
    }

    /// The integer that `text` writes exactly, when it is a JSON number with a whole value
    /// that fits in `T` (`"42"`, `"12.0"`, `"1e3"`; not `"12.5"` or `"300"` for `UInt8`).
    package static func integer<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>, as type: T.Type) -> T? {
        guard let shape = JSONString.numberShape(text) else { return nil }
        return shape.integer
            ? JSONNumber.integer(text, negative: shape.negative, as: T.self)
            : JSONNumber.wholeNumber(text, as: T.self)
    }

    /// The same rule for text a decoder has already read.
    package static func integer<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> T? {
        var text = text
        return text.withUTF8 { integer($0, as: type) }
    }

    /// The value of `text` when it is a JSON number that `T` can hold (not infinite).
    package static func floatingPoint<T: BinaryFloatingPoint>(_ text: UnsafeBufferPointer<UInt8>, as type: T.Type) -> T? {
        guard isNumber(text) else { return nil }
        return JSONNumber.floatingPoint(text, as: T.self)
    }

    /// The same rule for text a decoder has already read.
    package static func floatingPoint<T: BinaryFloatingPoint>(_ text: String, as type: T.Type) -> T? {
        var text = text
        return text.withUTF8 { floatingPoint($0, as: type) }
    }
}
