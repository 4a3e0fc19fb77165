/// The key of an array element in coding paths: `Index 3`, as Foundation names it.
struct IndexKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.index = intValue }
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// A key that is only a string: dictionary keys and `super`.
struct StringKey: CodingKey {
    let stringValue: String
    /// Whether a numeric key also has an `intValue`, as the standard library's dictionary
    /// keys do; Foundation uses those only with its default key strategy.
    private let numeric: Bool
    init(_ string: String, numeric: Bool = false) {
        self.stringValue = string
        self.numeric = numeric
    }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(String(intValue)) }
    var intValue: Int? { numeric ? Int(stringValue) : nil }
}

/// One step of the path to the value being decoded.
enum PathComponent {
    case key(any CodingKey)
    case index(Int)

    /// The position in an array that this step stands for, or `nil` for an object member.
    ///
    /// Other decoders (Foundation's, for the property wrappers) give array positions as keys
    /// named `Index N` with an `intValue`; that spelling is recognised here and nowhere else.
    var arrayPosition: Int? {
        switch self {
        case .index(let position): return position
        case .key(let key as IndexKey): return key.index
        case .key(let key):
            guard let position = key.intValue, key.stringValue == "Index \(position)" else { return nil }
            return position
        }
    }

    var codingKey: any CodingKey {
        switch self {
        case .key(let key): key
        case .index(let index): IndexKey(index)
        }
    }
}
