import Foundation

/// How a `Decodable` type is read from the tape, decided once per type and cached.
///
/// Asking `T.self as? SomeProtocol.Type` for every value costs a runtime conformance
/// lookup; the process asks once per type (``KnownTypeKinds``) and then switches on the answer.
enum TypeKind {
    case string, int, double, bool, float, int64
    /// Arrays of the common scalars, read in one loop without per-element dispatch.
    case stringArray, intArray, doubleArray, int64Array
    case date, data, url, decimal
    case collection(any TapeDecodable.Type)
    /// Decoded by the type's own `init(from:)`.
    case model

    init(_ type: Any.Type) {
        if type == String.self {
            self = .string
        } else if type == Int.self {
            self = .int
        } else if type == Double.self {
            self = .double
        } else if type == Bool.self {
            self = .bool
        } else if type == Float.self {
            self = .float
        } else if type == Int64.self {
            self = .int64
        } else if type == [String].self {
            self = .stringArray
        } else if type == [Int].self {
            self = .intArray
        } else if type == [Double].self {
            self = .doubleArray
        } else if type == [Int64].self {
            self = .int64Array
        } else if let collection = type as? any TapeDecodable.Type {
            self = .collection(collection)
        } else if type == Date.self {
            self = .date
        } else if type == Data.self {
            self = .data
        } else if type == URL.self {
            self = .url
        } else if type == Decimal.self {
            self = .decimal
        } else {
            self = .model
        }
    }
}

/// A small direct-mapped cache from type metadata to ``TypeKind``, one per decode, in front
/// of the process's ``KnownTypeKinds``: a hit here takes no lock.
///
/// Its table is one raw allocation made on first use: two Swift arrays cost a decode of a
/// small object more than the object's parsing (each looks up its storage type's metadata).
/// The owner calls ``deallocate()`` when the decode ends.
struct TypeKindCache {
    private struct Entry {
        var identity: UnsafeRawPointer?
        var kind: TypeKind
    }

    private static let size = 32
    private var entries: UnsafeMutablePointer<Entry>?

    @inline(__always)
    mutating func kind(of type: Any.Type) -> TypeKind {
        let table: UnsafeMutablePointer<Entry>
        if let entries {
            table = entries
        } else {
            table = .mallocated(capacity: Self.size)
            table.initialize(repeating: Entry(identity: nil, kind: .model), count: Self.size)
            entries = table
        }
        let identity = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let slot = table + (Int(bitPattern: UInt(bitPattern: Int(bitPattern: identity)) >> 4) & (Self.size - 1))
        if slot.pointee.identity == identity { return slot.pointee.kind }
        let kind = KnownTypeKinds.kind(of: type)
        slot.pointee = Entry(identity: identity, kind: kind)
        return kind
    }

    /// Frees the table; the cache must not be used afterwards.
    func deallocate() {
        free(entries)
    }
}
