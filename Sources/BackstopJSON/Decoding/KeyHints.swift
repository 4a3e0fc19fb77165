/// Where the last key lookup in an object at each depth ended, so the next one starts there.
///
/// Synthesized `init(from:)` asks for keys in declaration order, which is usually the
/// document's order, so starting where the previous lookup ended finds most keys first try.
/// The slots are the decoder's own stored memory (see ``DecoderState``): a wrapper type
/// around them kept `KeyedContainer.find` from being inlined.
extension DecoderState {
    struct KeyHint {
        var object: Int32
        var next: Int32
    }

    /// The slot for objects at `depth`, or `nil` when the document never nests that deep.
    @inline(__always)
    func hintSlot(depth: Int) -> UnsafeMutablePointer<KeyHint>? {
        if let hints { return depth < hintCount ? hints + depth : nil }
        // One slot per level the document can nest, and a few for the paths super decoders add;
        // deeper lookups simply go without a hint.
        hintCount = document.maxDepth + 4
        let slots = UnsafeMutablePointer<KeyHint>.mallocated(capacity: hintCount)
        slots.initialize(repeating: KeyHint(object: -1, next: 0), count: hintCount)
        hints = slots
        guard depth < hintCount else { return nil }
        return slots + depth
    }
}
