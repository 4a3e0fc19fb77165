/// One parsed value of a document, in document order.
///
/// Containers are followed by their descendants, so a container's subtree is the
/// contiguous range `index + 1 ..< end`; an object stores each key as a string node
/// followed by its value.
package struct JSONNode {
    package enum Kind: UInt8 {
        case null, `true`, `false`, number, string, array, object
    }

    struct Flags: OptionSet {
        let rawValue: UInt8
        /// String: contains at least one backslash escape.
        static let escaped = Flags(rawValue: 1)
        /// Number: no fraction and no exponent.
        static let integer = Flags(rawValue: 2)
        /// Number: starts with a minus sign.
        static let negative = Flags(rawValue: 4)
        /// Object: a key is escaped, repeated (or may be: keys sharing a hash) or not ASCII, so lookups
        /// must compare decoded keys from the start.
        static let slowKeys = Flags(rawValue: 8)
        /// String: holds raw control characters, accepted by ``DecodingPolicy/allowControlCharactersInStrings``.
        static let controlCharacters = Flags(rawValue: 16)
        /// String: holds bytes that are not UTF-8, accepted by ``DecodingPolicy/replaceInvalidUnicode``.
        static let invalidUTF8 = Flags(rawValue: 32)
        /// Number: `NaN`, `Infinity` or `-Infinity`, accepted by ``DecodingPolicy/allowNonFiniteNumbers``.
        static let nonFinite = Flags(rawValue: 64)
        /// String: holds bytes above 0x7F (checked to be UTF-8 unless ``invalidUTF8`` is set too).
        static let nonASCII = Flags(rawValue: 128)

        /// String: no escapes and nothing accepted by a lenient policy: its bytes are its text,
        /// well-formed UTF-8.
        var isPlainText: Bool { rawValue & ~Flags.nonASCII.rawValue == 0 }
    }

    package var kind: Kind
    var flags: Flags
    /// Byte offset of the value; for strings, of the first byte after the opening quote.
    package var start: UInt32
    /// Scalars: byte length (strings exclude the quotes). Containers: number of elements or members.
    package var length: UInt32
    /// Containers: the index just past the last descendant. Keys: a hash of the raw key bytes.
    package var aux: UInt32

    package var jsonKind: JSONKind {
        switch kind {
        case .null: .null
        case .true, .false: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// String: its bytes are its text (no escapes, nothing a lenient policy accepted).
    package var isPlainText: Bool { flags.isPlainText }
    /// String: holds raw control characters or bytes that are not UTF-8, which a lenient parse accepted.
    package var isDirtyString: Bool { flags.contains(.controlCharacters) || flags.contains(.invalidUTF8) }
    /// Number: `NaN`, `Infinity` or `-Infinity`, which a lenient parse accepted.
    package var isNonFinite: Bool { flags.contains(.nonFinite) }
    /// Number: no fraction and no exponent.
    package var isInteger: Bool { flags.contains(.integer) }
}
