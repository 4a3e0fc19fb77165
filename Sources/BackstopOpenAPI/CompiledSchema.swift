/// One schema compiled for the repair walk: what a value must be, in the few terms the walk
/// reads, with references resolved to indices of the document's ``CompiledSchema`` table.
///
/// Compiled once when an ``OpenAPIContract`` is made; the walk never reads OpenAPIKit's types.
struct CompiledSchema: Sendable {
    enum Kind: UInt8, Sendable {
        /// Anything (`{}`, `not`, a fragment): only byte-level dirt is repaired.
        case any
        case null, boolean, integer, number, string, object, array
        /// `oneOf`/`anyOf`: the value must fit one of ``alternatives``.
        case alternatives
    }

    /// What a number must fit in the generated code: `format: int32` is an `Int32`, `format:
    /// float` a `Float`; anything else an `Int` or a `Double`.
    enum Format: UInt8, Sendable {
        case standard, int32, float
    }

    /// A `oneOf`'s `discriminator`: the property whose value names the alternative, as the
    /// generated code reads it before anything else.
    struct Discriminator: Sendable {
        var property: String
        /// Each value the generated code accepts, with the alternative it decodes.
        var cases: [(value: String, alternative: Int)]
    }

    /// One property of an object schema.
    struct Property: Sendable {
        /// The name's UTF-8 bytes, as a plain key is written.
        var name: [UInt8]
        var text: String
        var schema: Int
        var required: Bool
    }

    var kind: Kind
    /// The component's name, or the JSON type's: a repair's `expected`.
    var name: String
    /// Whether `null` fits (`nullable: true`, or `null` among 3.1's types).
    var nullable = false
    /// `format: date-time`.
    var isDateTime = false
    /// `format: int32` or `float`.
    var format = Format.standard
    /// A string enum's values, as UTF-8; empty when the string is not an enum.
    var enumValues: [[UInt8]] = []
    /// The value an unknown enum value becomes, when the enum names one.
    var fallback: String?
    /// The schema's `default`, as JSON text.
    var defaultJSON: [UInt8]?
    var properties: [Property] = [] {
        didSet { requiredCount = properties.reduce(0) { $0 + ($1.required ? 1 : 0) } }
    }
    /// How many of ``properties`` are required.
    private(set) var requiredCount = 0
    /// `additionalProperties`' schema; `nil` for any value.
    var additional: Int?
    /// An array's items' schema; `nil` for any value.
    var items: Int?
    var alternatives: [Int] = []
    /// How ``alternatives`` are told apart, when the document says.
    var discriminator: Discriminator?

    init(kind: Kind, name: String) {
        self.kind = kind
        self.name = name
    }
}
