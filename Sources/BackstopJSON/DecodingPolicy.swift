/// Which repairs a ``ResilientJSONDecoder`` may make, as a set of named options.
///
/// ``strict`` makes none and behaves like Foundation's `JSONDecoder`; ``lenient`` makes
/// them all. Teams that want some but not others build their own set:
///
/// ```swift
/// decoder.policy = DecodingPolicy.lenient.subtracting(.dropInvalidElements)
/// ```
public struct DecodingPolicy: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `"42"` or `"12.5"` where a number is expected becomes that number, when nothing is lost.
    public static let numbersFromStrings = DecodingPolicy(rawValue: 1 << 0)
    /// A number where a `String` is expected becomes its text as written (`42` → `"42"`).
    public static let stringsFromNumbers = DecodingPolicy(rawValue: 1 << 1)
    /// `"true"`, `"false"`, `1`, `0`, `"1"` and `"0"` where a `Bool` is expected.
    public static let boolsFromNumbersAndStrings = DecodingPolicy(rawValue: 1 << 2)
    /// A missing key for a non-optional property takes the type's default (see ``DefaultDecodable``).
    public static let defaultMissingValues = DecodingPolicy(rawValue: 1 << 3)
    /// `null` for a non-optional property takes the type's default (see ``DefaultDecodable``).
    public static let defaultNullValues = DecodingPolicy(rawValue: 1 << 4)
    /// An optional property whose value cannot be decoded becomes `nil`.
    public static let nilInvalidOptionals = DecodingPolicy(rawValue: 1 << 5)
    /// An array element, set element or dictionary entry that cannot be decoded is dropped; the rest are kept.
    public static let dropInvalidElements = DecodingPolicy(rawValue: 1 << 6)
    /// `[1, 2,]` and `{"a": 1,}` are accepted.
    public static let allowTrailingCommas = DecodingPolicy(rawValue: 1 << 7)
    /// A string holding an unpaired surrogate escape (`"cut \ud83d"`) or bytes that are not
    /// UTF-8 (a Latin-1 `0xE9`) is kept, each ill-formed part becoming U+FFFD.
    ///
    /// Replacement follows Unicode's substitution of maximal subparts, as
    /// `String(decoding:as:)` does. Invalid UTF-8 outside a string stays an error.
    public static let replaceInvalidUnicode = DecodingPolicy(rawValue: 1 << 8)
    /// Raw control characters (U+0000 to U+001F, such as a tab or a newline) inside a
    /// string are kept as they are instead of failing the whole document.
    public static let allowControlCharactersInStrings = DecodingPolicy(rawValue: 1 << 9)
    /// The literals `NaN`, `Infinity` and `-Infinity`, which Python's `json.dumps` writes,
    /// are numbers: `Double`, `Float` and ``JSONValue/double(_:)`` take their value; any
    /// other type treats them as a value it cannot decode (an optional becomes `nil`, an
    /// element is dropped).
    public static let allowNonFiniteNumbers = DecodingPolicy(rawValue: 1 << 10)

    /// No repairs: the values and errors of Foundation's `JSONDecoder`, and RFC 8259 parsing.
    public static let strict: DecodingPolicy = []

    /// Every repair: coerce what loses nothing, default what is absent, drop or `nil` what
    /// is broken at the nearest lossy boundary, and report each one.
    public static let lenient: DecodingPolicy = [
        .numbersFromStrings, .stringsFromNumbers, .boolsFromNumbersAndStrings,
        .defaultMissingValues, .defaultNullValues, .nilInvalidOptionals,
        .dropInvalidElements, .allowTrailingCommas,
        .replaceInvalidUnicode, .allowControlCharactersInStrings, .allowNonFiniteNumbers,
    ]
}
