/// A way an answer can be dirty while still meaning the same thing, made where the document's
/// schema says each value is: the misbehaviours ``DocumentRehearsal`` dirties an answer with.
///
/// The first four are BadBackend's own dirty-data scenarios, by the same names; the others are
/// the shapes a real backend gets wrong beside them: dates, and bytes below the JSON.
package enum DocumentDirt: String, Sendable, CaseIterable {
    /// Every integer, number and boolean the schema declares, sent as a string: `"id":"1"`.
    case numbersAsStrings = "numbers-as-strings"
    /// In each object, its first required property `null` and its second left out.
    case nullsAndMissingFields = "nulls-and-missing-fields"
    /// Every string enum's value one the document does not list.
    case unknownEnumValues = "unknown-enum-values"
    /// In each list, one element that cannot be read as its siblings are.
    case brokenArrayElement = "broken-array-element"
    /// Every `date-time` in another shape a backend writes: a space for `T`, no zone, epoch seconds.
    case oddDates = "odd-dates"
    /// A UTF-8 byte-order mark before the JSON.
    case byteOrderMark = "byte-order-mark"
    /// A comma after the last member of each object and array.
    case trailingCommas = "trailing-commas"
    /// A string of text written in Latin-1, not UTF-8: `Crème brûlée` as the bytes `0xE8` and `0xFB`.
    case latin1 = "latin-1"
    /// `NaN` where the schema declares a number.
    case notANumber = "nan"

    /// One line on what the dirt does, as `GET /scenarios` and `backstop rehearse` say it.
    package var summary: String {
        switch self {
        case .numbersAsStrings: "integers, numbers and booleans sent as strings"
        case .nullsAndMissingFields: "in each object, a required field null and another missing"
        case .unknownEnumValues: "enum values the document does not list"
        case .brokenArrayElement: "one element of each list that cannot be decoded"
        case .oddDates: "date-times with a space, without a zone, or as epoch seconds"
        case .byteOrderMark: "a UTF-8 byte-order mark before the JSON"
        case .trailingCommas: "a trailing comma in each object and array"
        case .latin1: "a string written in Latin-1, not UTF-8"
        case .notANumber: "NaN where a number is declared"
        }
    }
}
