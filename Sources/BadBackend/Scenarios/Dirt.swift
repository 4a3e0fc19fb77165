/// A way a payload can be dirty while still meaning the same thing.
public enum Dirt: String, Sendable, CaseIterable {
    /// Every number, and the flag, sent as a string: `"id":"1"`, `"price":"999.5"`, `"inStock":"true"`.
    case numbersAsStrings = "numbers-as-strings"
    /// A field `null` and another left out: a product's `price` is `null` and its `stock` missing.
    case nullsAndMissingFields = "nulls-and-missing-fields"
    /// An enum value the app has never heard of: a product's `category` is `"hologram"`.
    case unknownEnumValues = "unknown-enum-values"
    /// One element of an array that cannot be decoded as its siblings are.
    case brokenArrayElement = "broken-array-element"
}
