import Foundation

/// A parsed document: the UTF-8 bytes and the tape that indexes them.
///
/// A class so that the decoder and every container can share it without copying. Only
/// the scanner writes to it; once ``finishTape()`` has run, decoding only reads it, so
/// any number of decodes may share one document across threads. It
/// either owns a copy of the bytes, or borrows the caller's bytes for the length of one
/// decode and copies them only if a decoder outlives that decode (see ``keepBytes()``),
/// so a one-shot decode never holds a second copy of its input.
///
/// Its stored properties are `@exclusivity(unchecked)`. The runtime's check catches accesses that
/// overlap within one thread, and none here do: the scanner writes the properties before any
/// reader sees the document, and ``keepBytes()`` once the decode that borrowed the bytes has
/// ended. Checked, each value the scanner appended cost an access check (about 75 instructions,
/// as much as scanning a short string), and so did each read of the tape from another module.
package final class JSONDocument: @unchecked Sendable {
    /// The document's UTF-8 bytes.
    @exclusivity(unchecked) package private(set) var base: UnsafePointer<UInt8>
    package let byteCount: Int
    @exclusivity(unchecked) private var ownedBytes: UnsafeMutablePointer<UInt8>?
    /// The tape, in `malloc` memory so that growing it is a `realloc`, which can extend a
    /// large block in place instead of holding the old and the new copy at once.
    @exclusivity(unchecked) private(set) var nodes: UnsafeMutablePointer<JSONNode>
    @exclusivity(unchecked) package private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int
    /// The deepest nesting of containers in the document.
    @exclusivity(unchecked) var maxDepth = 0
    /// Byte offsets of trailing commas accepted by a lenient parse, with the container that held each.
    @exclusivity(unchecked) package var trailingCommas: [(container: Int, offset: Int)] = []
    /// The index of a `null` outside the document's tree, which decoders of absent members
    /// stand on, as Foundation's do; the tape's last entry once parsing is done.
    @exclusivity(unchecked) private(set) var detachedNull = 0

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
        nodes = .mallocated(capacity: capacity)
        if let sourceBase = source.baseAddress { adoptCopy(of: sourceBase.assumingMemoryBound(to: UInt8.self)) }
    }

    /// A document that reads `source` in place. Before `source` goes away the caller must
    /// call ``keepBytes()`` if anything besides the caller still holds the document.
    init(borrowing source: UnsafeRawBufferPointer) {
        byteCount = source.count
        base = source.baseAddress.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) } ?? Self.noBytes
        capacity = Self.initialCapacity(forBytes: source.count)
        nodes = .mallocated(capacity: capacity)
    }

    /// Real payloads hold a value every 8 to 27 bytes (compact envelopes to pretty-printed
    /// objects); the tape starts near the dense end and grows in place when it must.
    private static func initialCapacity(forBytes count: Int) -> Int { max(16, count / 10) }

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

    /// Ends parsing: adds the detached `null`, so that nothing appends to the tape after this.
    func finishTape() {
        detachedNull = append(JSONNode(kind: .null, flags: [], start: 0, length: 0, aux: 0))
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
    package subscript(index: Int) -> JSONNode {
        get { nodes[index] }
        set { nodes[index] = newValue }
    }
}
