/// One text of a ``Repair`` (its path, expected type, excerpt or reason), kept as what it is
/// made of and written out when read.
///
/// A lenient decode may repair every element of a large array. Writing each path, type name
/// and error summary out as the repair was made cost microseconds a repair, mostly for text nobody
/// reads. What each case keeps is immutable, so the text read later, on any thread, is the
/// text that writing it at once would have given.
enum RepairText: Sendable {
    /// Text already written.
    case text(String)
    /// A JSON path: the decoder's path components (see ``JSONPath``)…
    case components([PathComponent])
    /// …then an array position: the path of a dropped element, kept without a box.
    case element([PathComponent], position: Int)
    /// …then an object member's key.
    indirect case member([PathComponent], key: any CodingKey)
    /// A Swift type's name, as `"\(type)"` writes it.
    case typeName(Any.Type)
    /// A lossy boundary's reason: the one-line summary of the error it absorbed (errors are
    /// `Sendable` values; a `DecodingError`'s context is immutable).
    case summary(any Error)
    /// `String(reflecting:)` of a raw value that was a string: the string quoted and escaped.
    case reflecting(String)
    /// An ``UnknownCaseRepresentable`` fallback's reason: the raw value, then the case used.
    indirect case fallback(raw: RepairText, type: Any.Type)

    /// The JSON path of `components`, then `key`.
    static func path(_ components: [PathComponent], _ key: (any CodingKey)?) -> RepairText {
        switch key {
        case nil: .components(components)
        case let index as IndexKey: .element(components, position: index.index)
        case let key?: .member(components, key: key)
        }
    }

    var string: String {
        switch self {
        case .text(let text): text
        case .components(let components): JSONPath.string(components)
        case .element(let components, let position): JSONPath.string(components, appending: IndexKey(position))
        case .member(let components, let key): JSONPath.string(components, appending: key)
        case .typeName(let type): "\(type)"
        case .summary(let error): DecoderState.summary(of: error)
        case .reflecting(let raw): String(reflecting: raw)
        case .fallback(let raw, let type): "\(raw.string) is not a known case; used \(Self.unknownCase(of: type))"
        }
    }

    /// The text of a path with every array position written `[*]`, made without writing the positions.
    var indexFreePath: String {
        switch self {
        case .components(let components): JSONPath.string(components, indexFree: true)
        case .element(let components, _): JSONPath.string(components, appending: IndexKey(0), indexFree: true)
        case .member(let components, let key): JSONPath.string(components, appending: key, indexFree: true)
        default: JSONPath.indexFree(string)
        }
    }

    /// The type is kept as `Any.Type`: unlike it, `any UnknownCaseRepresentable.Type` is not `Sendable`.
    private static func unknownCase(of type: Any.Type) -> String {
        guard let type = type as? any UnknownCaseRepresentable.Type else { return "" }
        return describeUnknownCase(type)
    }

    private static func describeUnknownCase<T: UnknownCaseRepresentable>(_ type: T.Type) -> String {
        String(describing: T.unknownCase)
    }
}
