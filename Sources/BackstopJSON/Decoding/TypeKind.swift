import Foundation

/// How a `Decodable` type is read from the tape, decided once per type and cached.
///
/// Asking `T.self as? SomeProtocol.Type` for every value costs a runtime conformance
/// lookup; the decoder asks once per type and then switches on the answer.
enum TypeKind {
    case string, int, double, bool, float, int64
    /// Arrays of the common scalars, read in one loop without per-element dispatch.
    case stringArray, intArray, doubleArray, int64Array
    case date, data, url, decimal
    case collection(any TapeDecodable.Type)
    /// Decoded by the type's own `init(from:)`.
    case model

    init(_ type: Any.Type) {
        if type == String.self { self = .string }
        else if type == Int.self { self = .int }
        else if type == Double.self { self = .double }
        else if type == Bool.self { self = .bool }
        else if type == Float.self { self = .float }
        else if type == Int64.self { self = .int64 }
        else if type == [String].self { self = .stringArray }
        else if type == [Int].self { self = .intArray }
        else if type == [Double].self { self = .doubleArray }
        else if type == [Int64].self { self = .int64Array }
        else if let collection = type as? any TapeDecodable.Type { self = .collection(collection) }
        else if type == Date.self { self = .date }
        else if type == Data.self { self = .data }
        else if type == URL.self { self = .url }
        else if type == Decimal.self { self = .decimal }
        else { self = .model }
    }
}

/// A small direct-mapped cache from type metadata to ``TypeKind``.
struct TypeKindCache {
    private static let size = 32
    // Created on first use, so a decode that never asks costs nothing.
    private var types: [UnsafeRawPointer?] = []
    private var kinds: [TypeKind] = []

    @inline(__always)
    mutating func kind(of type: Any.Type) -> TypeKind {
        if types.isEmpty {
            types = [UnsafeRawPointer?](repeating: nil, count: Self.size)
            kinds = [TypeKind](repeating: .model, count: Self.size)
        }
        let identity = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let slot = Int(bitPattern: UInt(bitPattern: Int(bitPattern: identity)) >> 4) & (Self.size - 1)
        if types[slot] == identity { return kinds[slot] }
        let kind = TypeKind(type)
        types[slot] = identity
        kinds[slot] = kind
        return kind
    }
}
