/// What a lenient parse accepted inside a value, for readers outside the decoder that repair
/// documents against a schema of their own (BackstopOpenAPI) and report as the decoder does.
extension JSONDocument {
    /// The text of the string at `index`, each ill-formed part U+FFFD: what a lenient decode reads.
    package func lenientText(of index: Int) -> String {
        let node = self[index]
        if node.flags.isPlainText { return plainText(of: node) }
        let raw = raw(node)
        if !node.flags.contains(.escaped) { return String(decoding: raw, as: UTF8.self) }
        let unescaped = JSONString.unescape(raw, replacingInvalidUnicode: true, isUTF8: !node.flags.contains(.invalidUTF8))
        return (try? unescaped.get().text) ?? String(decoding: raw, as: UTF8.self)
    }

    /// The repairs a lenient parse made inside the string at `index` (raw control characters
    /// kept, ill-formed Unicode replaced), as ``ResilientJSONDecoder`` reports them.
    package func stringDirt(at index: Int) -> [(action: Repair.Action, found: Repair.Found, reason: String)] {
        let node = self[index]
        guard node.kind == .string, node.isDirtyString || node.flags.contains(.escaped) else { return [] }
        let raw = raw(node)
        var dirt: [(action: Repair.Action, found: Repair.Found, reason: String)] = []
        if node.flags.contains(.controlCharacters), let (first, count) = JSONString.controlCharacters(in: raw) {
            dirt.append(
                (
                    .acceptedControlCharacter, Repair.Found(kind: .string, excerpt: first),
                    DecoderState.firstOf(count, "raw control character", "kept")
                ))
        }
        if let (first, count) = JSONString.invalidUnicode(in: raw) {
            dirt.append(
                (
                    .replacedInvalidUnicode, Repair.Found(kind: .string, excerpt: first),
                    DecoderState.firstOf(count, "ill-formed Unicode part", "replaced with U+FFFD")
                ))
        }
        return dirt
    }
}

extension JSONDocument {
    /// The tape, for a reader in another module that walks a whole finished document. Valid
    /// while the document lives; nothing writes to the tape once parsing has finished.
    package var finishedTape: UnsafePointer<JSONNode> { UnsafePointer(nodes) }
}
