/// An app's changes to the alerts, declared once as data at app start.
///
/// ```swift
/// RecoveryPolicy.standard = RecoveryPolicy(overrides: [
///     .code(StudyGroupCode.classNotFound): RecoveryOverride(category: .notFound),
///     .code(AppCode.maintenance): RecoveryOverride(titleKey: "alert.title.maintenance",
///                                                  actions: [.dismiss, .openStatusPage]),
///     .client(.cartEmpty): RecoveryOverride(category: .rejectedInput),
///     .category(.forbidden): RecoveryOverride(actions: [.dismiss, .contactSupport]),
/// ])
/// ```
///
/// For an error, the most specific override applies: its code as a typed code of the
/// error's `General` or `Module` type, then its code as sent (`.code(RawServerCode)`),
/// then its client reason. What it leaves out comes from the override of the resulting
/// category, then from the defaults. Other codes and categories are untouched.
public struct RecoveryOverrides: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// What an override applies to.
    public struct Key: Sendable, Hashable {
        enum Target: Sendable, Hashable {
            case code(type: ObjectIdentifier?, RawServerCode)
            case client(String)
            case category(RecoveryCategory)
        }

        let target: Target

        /// One code of a `General` or `Module` type: matches errors whose code is classified as it.
        public static func code(_ code: some ServerCode) -> Key {
            Key(target: .code(type: ObjectIdentifier(type(of: code)), code.code))
        }

        /// A code as the server sends it, however it is classified, unknown codes included.
        public static func code(_ code: RawServerCode) -> Key {
            Key(target: .code(type: nil, code))
        }

        /// A ``ClientFailure`` reason, such as an app's own.
        public static func client(_ reason: ClientFailure.Reason) -> Key {
            Key(target: .client(reason.name))
        }

        /// Every error of a category.
        public static func category(_ category: RecoveryCategory) -> Key {
            Key(target: .category(category))
        }
    }

    private var entries: [Key: RecoveryOverride]

    /// Overrides by what they apply to.
    public init(_ entries: [Key: RecoveryOverride] = [:]) {
        self.entries = entries
    }

    public init(dictionaryLiteral elements: (Key, RecoveryOverride)...) {
        self.init(Dictionary(elements) { _, last in last })
    }

    /// The override declared for `key` exactly, if any.
    public subscript(key: Key) -> RecoveryOverride? {
        get { entries[key] }
        set { entries[key] = newValue }
    }

    /// The override for the most specific of `keys` that has one.
    func first(of keys: [Key]) -> RecoveryOverride? {
        keys.lazy.compactMap { entries[$0] }.first
    }
}
