import Foundation

/// The `Decoder` that `init(from:)` implementations receive: a cursor over a parsed
/// document, the coding path that leads to it, and the repairs made so far.
///
/// One instance serves a whole decode; nested values move its cursor and path and put
/// them back, so decoding allocates nothing per value beyond what the model keeps. Its
/// jobs live in extensions by concern: containers (`+Containers`), dispatch by type kind
/// (`+Values`), scalars (`ScalarDecoding`), errors (`+Errors`) and repairs (`+Repairs`).
final class DecoderState: Decoder {
    let document: JSONDocument
    let options: DecodingOptions
    /// The tape index of the value that `container(...)` calls open.
    @exclusivity(unchecked) var index: Int
    @exclusivity(unchecked) var path: [PathComponent]
    /// Repairs in the order they were made; super decoders record into their root's.
    @exclusivity(unchecked) var repairs: [Repair] = []
    /// The decoder that collects repairs for this one, when this is a super decoder.
    let root: DecoderState?
    @exclusivity(unchecked) var typeKinds = TypeKindCache()
    /// Error descriptions already written, by type and kind found (see `+Errors`).
    @exclusivity(unchecked) var messages: [MessageKey: String] = [:]
    /// Key lookup hints, one slot per depth (see `KeyHints.swift`); allocated on first use.
    var hints: UnsafeMutablePointer<KeyHint>?
    var hintCount = 0

    init(document: JSONDocument, options: DecodingOptions, index: Int = 0, path: [PathComponent] = [], root: DecoderState? = nil) {
        self.document = document
        self.options = options
        self.index = index
        self.path = path
        self.root = root
    }

    deinit {
        free(hints)
        typeKinds.deallocate()
    }

    var codingPath: [any CodingKey] { path.map(\.codingKey) }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    @inline(__always)
    func allows(_ option: DecodingPolicy) -> Bool { options.policy.contains(option) }

    /// Runs `body` with the cursor on `valueIndex` and `component` on the path.
    @inline(__always)
    func with<R>(_ valueIndex: Int, _ component: consuming PathComponent?, _ body: () throws -> R) rethrows -> R {
        let saved = index
        // Moved onto the path, not copied: a key component holds an existential, whose copy
        // and destruction go through its type's value witnesses.
        let pushed: Bool
        switch consume component {
        case .some(let component):
            path.append(component)
            pushed = true
        case .none: pushed = false
        }
        index = valueIndex
        defer {
            index = saved
            if pushed { path.removeLast() }
        }
        return try body()
    }
}
