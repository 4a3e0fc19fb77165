/// One change a lenient decode made to the data so that it would fit the model.
///
/// Repairs are for engineers (logs, analytics, backend bug reports), never for users.
public struct Repair: Sendable, Hashable, CustomStringConvertible {
    /// What was done.
    public enum Action: String, Sendable, Hashable, Codable {
        /// A present value of the wrong type was converted without loss (`"42"` → `42`).
        case coerced
        /// The key was absent; the type's default was used.
        case defaultedBecauseMissing
        /// The value was `null`; the type's default was used.
        case defaultedBecauseNull
        /// An array element or dictionary entry could not be decoded and was left out.
        case dropped
        /// An enum raw value the app does not know became the enum's `unknownCase`.
        case fellBack
        /// An optional's value could not be decoded and became `nil`.
        case setToNil
        /// A trailing comma in an array or object was ignored.
        case ignoredTrailingComma
        /// A string held unpaired surrogate escapes or bytes that are not UTF-8; each
        /// ill-formed part became U+FFFD and the rest of the string was kept.
        /// ``Repair/found`` shows the first part as written (`\ud83d`, `\xE9`).
        case replacedInvalidUnicode
        /// A string held raw control characters (a tab, a newline), kept as they are.
        /// ``Repair/found`` shows the first one escaped (`\u0009`).
        case acceptedControlCharacter
        /// A `NaN`, `Infinity` or `-Infinity` literal was read as that floating-point value.
        case acceptedNonFiniteNumber
    }

    /// What the document held where the repair was made.
    public struct Found: Sendable, Hashable, CustomStringConvertible {
        // First, so that `kind` fills its padding: `Repair`s are kept by the hundred thousand.
        var excerptText: RepairText
        /// The kind of value, or ``JSONKind/missing`` when the key was absent.
        public var kind: JSONKind
        /// A short excerpt of the value as written in the document (empty when missing).
        public var excerpt: String {
            get { excerptText.string }
            set { excerptText = .text(newValue) }
        }

        /// What was found: its kind and a short excerpt of it as written.
        public init(kind: JSONKind, excerpt: String) {
            self.init(kind: kind, excerptText: .text(excerpt))
        }

        init(kind: JSONKind, excerptText: RepairText) {
            self.kind = kind
            self.excerptText = excerptText
        }

        public var description: String {
            let excerpt = excerpt
            return kind == .missing || kind == .null || excerpt.isEmpty ? kind.rawValue : "\(kind.rawValue) \(excerpt)"
        }

        public static func == (lhs: Found, rhs: Found) -> Bool {
            lhs.kind == rhs.kind && lhs.excerpt == rhs.excerpt
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(kind)
            hasher.combine(excerpt)
        }
    }

    // The texts are written out when read (see `RepairText`): a decode may make a repair per
    // element of a large array, and most repairs are only counted or logged in part.
    private var pathText: RepairText
    private var expectedText: RepairText
    private var reasonText: RepairText?

    /// Where, as a JSON path: `$` for the root, then `.key` or `['odd key']` and `[index]`.
    public var path: String {
        get { pathText.string }
        set { pathText = .text(newValue) }
    }
    /// ``path`` with every array position written `[*]` (`$.data[*].id`): where the same field
    /// of every element is one place, as the contract-drift report groups repairs.
    package var indexFreePath: String { pathText.indexFreePath }
    /// The Swift type the model asked for, such as `Int` or `Array<Product>`.
    public var expected: String {
        get { expectedText.string }
        set { expectedText = .text(newValue) }
    }
    /// What the document held there.
    public var found: Found
    /// What the decoder did about it.
    public var action: Action
    /// Why a value was dropped, `nil`'d or fell back, in a developer's words; `nil` when the action says it all.
    public var reason: String? {
        get { reasonText?.string }
        set { reasonText = newValue.map { .text($0) } }
    }

    /// A repair, as a reporter or a test writes one; the decoder makes its own.
    public init(path: String, expected: String, found: Found, action: Action, reason: String? = nil) {
        self.init(path: .text(path), expected: .text(expected), found: found, action: action, reason: reason.map { .text($0) })
    }

    /// A repair whose texts are written out only when read.
    init(path: RepairText, expected: RepairText, found: Found, action: Action, reason: RepairText? = nil) {
        self.pathText = path
        self.expectedText = expected
        self.found = found
        self.action = action
        self.reasonText = reason
    }

    /// Equal when every text reads the same, however it is kept.
    public static func == (lhs: Repair, rhs: Repair) -> Bool {
        lhs.action == rhs.action && lhs.found == rhs.found && lhs.path == rhs.path
            && lhs.expected == rhs.expected && lhs.reason == rhs.reason
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(expected)
        hasher.combine(found)
        hasher.combine(action)
        hasher.combine(reason)
    }

    /// One line for engineers; paths and excerpts come from the document, so their control and
    /// bidirectional characters are escaped (`\u{1B}`).
    public var description: String {
        var text = "\(path): expected \(expected), found \(found); \(action.rawValue)"
        if let reason { text += " (\(reason))" }
        return UntrustedText.escaped(text)
    }
}
