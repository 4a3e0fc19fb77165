import Foundation

/// The kind of a JSON value, as it appears in a document or as it was found in a repair.
public enum JSONKind: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The key was not in the object at all.
    case missing
    case null
    case bool
    case number
    case string
    case array
    case object

    public var description: String { rawValue }
}

/// One parsed value of a document, in document order.
///
/// Containers are followed by their descendants, so a container's subtree is the
/// contiguous range `index + 1 ..< end`; an object stores each key as a string node
/// followed by its value.
struct JSONNode {
    enum Kind: UInt8 {
        case null, `true`, `false`, number, string, array, object
    }

    struct Flags: OptionSet {
        let rawValue: UInt8
        /// String: contains at least one backslash escape.
        static let escaped = Flags(rawValue: 1)
        /// Number: no fraction and no exponent.
        static let integer = Flags(rawValue: 2)
        /// Number: starts with a minus sign.
        static let negative = Flags(rawValue: 4)
        /// Object: a key is escaped, repeated or not ASCII, so lookups must compare decoded keys from the start.
        static let slowKeys = Flags(rawValue: 8)
    }

    var kind: Kind
    var flags: Flags
    /// Byte offset of the value; for strings, of the first byte after the opening quote.
    var start: UInt32
    /// Scalars: byte length (strings exclude the quotes). Containers: number of elements or members.
    var length: UInt32
    /// Containers: the index just past the last descendant. Keys: a hash of the raw key bytes.
    var aux: UInt32

    var jsonKind: JSONKind {
        switch kind {
        case .null: .null
        case .true, .false: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }
}

/// A parsed document: the UTF-8 bytes and the tape that indexes them.
///
/// A class so that the decoder and every container can share it without copying. It
/// either owns a copy of the bytes, or borrows the caller's bytes for the length of one
/// decode and copies them only if a decoder outlives that decode (see ``keepBytes()``),
/// so a one-shot decode never holds a second copy of its input.
final class JSONDocument: @unchecked Sendable {
    /// The document's UTF-8 bytes.
    private(set) var base: UnsafePointer<UInt8>
    let byteCount: Int
    private var ownedBytes: UnsafeMutablePointer<UInt8>?
    private(set) var nodes: UnsafeMutablePointer<JSONNode>
    private(set) var count = 0
    private var capacity: Int
    /// The deepest nesting of containers in the document.
    var maxDepth = 0
    /// Byte offsets of trailing commas accepted by a lenient parse, with the container that held each.
    var trailingCommas: [(container: Int, offset: Int)] = []

    /// Something valid to point at for an empty document.
    nonisolated(unsafe) private static let noBytes: UnsafePointer<UInt8> = {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 8)
        bytes.initialize(repeating: 0, count: 8)
        return UnsafePointer(bytes)
    }()

    /// A document that keeps its own copy of `source`.
    init(copying source: UnsafeRawBufferPointer) {
        byteCount = source.count
        base = Self.noBytes
        capacity = Self.initialCapacity(forBytes: source.count)
        nodes = Self.allocateNodes(capacity)
        if let sourceBase = source.baseAddress { adoptCopy(of: sourceBase.assumingMemoryBound(to: UInt8.self)) }
    }

    /// A document that reads `source` in place. Before `source` goes away the caller must
    /// call ``keepBytes()`` if anything besides the caller still holds the document.
    init(borrowing source: UnsafeRawBufferPointer) {
        byteCount = source.count
        base = source.baseAddress.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) } ?? Self.noBytes
        capacity = Self.initialCapacity(forBytes: source.count)
        nodes = Self.allocateNodes(capacity)
    }

    /// Real payloads hold a value every 8 to 27 bytes (compact envelopes to pretty-printed
    /// objects); the tape starts near the dense end and grows in place when it must.
    private static func initialCapacity(forBytes count: Int) -> Int { max(16, count / 10) }

    // The tape lives in `malloc` memory so that growing it is a `realloc`, which can extend
    // a large block in place instead of holding the old and the new copy at once.
    private static func allocateNodes(_ capacity: Int) -> UnsafeMutablePointer<JSONNode> {
        guard let memory = malloc(capacity * MemoryLayout<JSONNode>.stride) else {
            // Memory exhaustion, not bad input: Swift's own allocations stop the same way.
            preconditionFailure("BackstopJSON: out of memory for \(capacity) tape entries")
        }
        return memory.bindMemory(to: JSONNode.self, capacity: capacity)
    }

    /// Copies borrowed bytes into the document, for a decoder or container that a model
    /// kept to decode from later (Foundation's `JSONDecoder` allows that too).
    func keepBytes() {
        if ownedBytes == nil { adoptCopy(of: base) }
    }

    private func adoptCopy(of source: UnsafePointer<UInt8>) {
        let owned = UnsafeMutablePointer<UInt8>.allocate(capacity: max(byteCount, 1))
        owned.initialize(from: source, count: byteCount)
        ownedBytes = owned
        base = UnsafePointer(owned)
    }

    deinit {
        ownedBytes?.deallocate()
        free(nodes)
    }

    @inline(__always)
    func append(_ node: JSONNode) -> Int {
        if count == capacity { grow() }
        (nodes + count).initialize(to: node)
        count += 1
        return count - 1
    }

    private func grow() {
        let newCapacity = capacity * 2
        guard let memory = realloc(nodes, newCapacity * MemoryLayout<JSONNode>.stride) else {
            preconditionFailure("BackstopJSON: out of memory for \(newCapacity) tape entries")
        }
        nodes = memory.bindMemory(to: JSONNode.self, capacity: newCapacity)
        capacity = newCapacity
    }

    @inline(__always)
    subscript(index: Int) -> JSONNode {
        get { nodes[index] }
        set { nodes[index] = newValue }
    }

    /// The raw bytes of a scalar node (strings without their quotes).
    @inline(__always)
    func raw(_ node: JSONNode) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + Int(node.start), count: Int(node.length))
    }

    /// The index of the value that follows the value at `index`.
    @inline(__always)
    func next(after index: Int) -> Int {
        let node = nodes[index]
        return node.kind == .array || node.kind == .object ? Int(node.aux) : index + 1
    }
}
