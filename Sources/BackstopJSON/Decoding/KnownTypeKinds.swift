import Foundation

/// The ``TypeKind`` of each type the process's decodes have met, shared by all of them, so
/// that the runtime is asked about a type once per process rather than once per decode.
///
/// Deciding a kind asks the runtime whether the type conforms to `TapeDecodable`, which costs
/// about 400 instructions even when the runtime has the answer cached: 4% of the decode of an
/// 88-byte object, paid on every call for its root type alone. A lookup here costs a lock and
/// one probe. The table is direct-mapped: a type that collides with another is decided again,
/// never decided wrong.
final class KnownTypeKinds: @unchecked Sendable {
    private struct Entry {
        var identity: UnsafeRawPointer?
        var kind: TypeKind
    }

    private static let shared = KnownTypeKinds()
    private static let size = 256

    private let lock = NSLock()
    /// Guarded by `lock`; lives as long as the process.
    private let entries: UnsafeMutablePointer<Entry>

    private init() {
        entries = .allocate(capacity: Self.size)
        entries.initialize(repeating: Entry(identity: nil, kind: .model), count: Self.size)
    }

    /// The kind of `type`, decided on its first use in the process.
    static func kind(of type: Any.Type) -> TypeKind {
        shared.kind(of: type)
    }

    private func kind(of type: Any.Type) -> TypeKind {
        let identity = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let slot = entries + (Int(bitPattern: UInt(bitPattern: Int(bitPattern: identity)) >> 4) & (Self.size - 1))
        lock.lock()
        if slot.pointee.identity == identity {
            defer { lock.unlock() }
            return slot.pointee.kind
        }
        lock.unlock()
        // Decided outside the lock: the runtime's lookup may take locks of its own.
        let kind = TypeKind(type)
        lock.lock()
        slot.pointee = Entry(identity: identity, kind: kind)
        lock.unlock()
        return kind
    }
}
