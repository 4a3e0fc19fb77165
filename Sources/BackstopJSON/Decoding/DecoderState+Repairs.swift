/// The repair log of a decode: what was repaired, where, and the one way a broken value is
/// given up on at a lossy boundary.
extension DecoderState {
    /// The JSON path of the current value, with `key` appended.
    func jsonPath(_ key: (any CodingKey)?) -> String {
        JSONPath.string(path, appending: key)
    }

    func record(_ repair: Repair) {
        if let root { root.record(repair) } else { repairs.append(repair) }
    }

    var repairCount: Int { root?.repairCount ?? repairs.count }

    /// Forgets repairs made inside a value that was then dropped or set to `nil` as a whole.
    private func discardRepairs(from mark: Int) {
        if let root { root.discardRepairs(from: mark) } else if repairs.count > mark { repairs.removeSubrange(mark...) }
    }

    func recordCoercion(_ valueIndex: Int, to type: Any.Type, _ key: (any CodingKey)?) {
        record(Repair(path: .path(path, key), expected: .typeName(type), found: document.found(valueIndex), action: .coerced))
    }

    func recordDefault(_ type: Any.Type, _ key: (any CodingKey)?, missing: Bool) {
        record(
            Repair(
                path: .path(path, key), expected: .typeName(type),
                found: Repair.Found(kind: missing ? .missing : .null, excerpt: missing ? "" : "null"),
                action: missing ? .defaultedBecauseMissing : .defaultedBecauseNull))
    }

    /// ``DecodingPolicy/allowControlCharactersInStrings``: one repair per string, naming the first.
    func recordControlCharacters(_ raw: UnsafeBufferPointer<UInt8>, _ key: (any CodingKey)?) {
        guard let (first, count) = JSONString.controlCharacters(in: raw) else { return }
        record(
            Repair(
                path: .path(path, key), expected: .typeName(String.self), found: Repair.Found(kind: .string, excerpt: first),
                action: .acceptedControlCharacter, reason: .text(Self.firstOf(count, "raw control character", "kept"))))
    }

    /// ``DecodingPolicy/replaceInvalidUnicode``: one repair per string, naming the first ill-formed part.
    func recordInvalidUnicode(_ raw: UnsafeBufferPointer<UInt8>, _ key: (any CodingKey)?) {
        guard let (first, count) = JSONString.invalidUnicode(in: raw) else { return }
        record(
            Repair(
                path: .path(path, key), expected: .typeName(String.self), found: Repair.Found(kind: .string, excerpt: first),
                action: .replacedInvalidUnicode, reason: .text(Self.firstOf(count, "ill-formed Unicode part", "replaced with U+FFFD"))))
    }

    /// "1 raw control character kept", or with more, which one `found` shows.
    static func firstOf(_ count: Int, _ thing: String, _ done: String) -> String {
        count == 1 ? "1 \(thing) \(done)" : "\(count) \(thing)s \(done); found shows the first"
    }

    /// ``DecodingPolicy/allowNonFiniteNumbers``: the value of `NaN`, `Infinity` or `-Infinity` as `T`.
    func acceptNonFinite<T: BinaryFloatingPoint>(_ valueIndex: Int, as type: T.Type, _ key: (any CodingKey)?) -> T {
        let node = document[valueIndex]
        record(
            Repair(path: .path(path, key), expected: .typeName(type), found: document.found(valueIndex), action: .acceptedNonFiniteNumber))
        if document.raw(node).first == UInt8(ascii: "N") { return .nan }
        return node.flags.contains(.negative) ? -.infinity : .infinity
    }

    /// A lossy boundary: runs `body`, which decodes the value at `valueIndex`; when it throws
    /// an error that may be absorbed, rolls back the repairs made inside it, records that the
    /// value was given up on (`action`) and returns `nil`.
    ///
    /// Collections pass a `body` that keeps the element itself and returns nothing: binding
    /// an optional of a generic element would cost a metadata lookup per element. `path` is
    /// the path the value's `key` is under, when it is not the decoder's own (containers
    /// opened with `nestedUnkeyedContainer`). `key` is evaluated only for a loss: boxing a
    /// generic key as `any CodingKey` for every optional member cost a small decode 3–4%.
    @inline(__always) @discardableResult
    func absorbingLoss<R>(
        of valueIndex: Int, _ type: Any.Type, _ key: @autoclosure () -> (any CodingKey)?, _ action: Repair.Action,
        under path: [PathComponent]? = nil, _ body: () throws -> R
    ) rethrows -> R? {
        let mark = repairCount
        do {
            return try body()
        } catch  where Self.isAbsorbable(error) {
            giveUp(valueIndex, type, key(), action, error, since: mark, under: path)
            return nil
        }
    }

    /// The catch of ``absorbingLoss(of:_:_:_:under:_:)``: rolls back the repairs made since
    /// `mark` and records the loss. Only the element loops of arrays call it directly.
    @inline(never)
    func giveUp(
        _ valueIndex: Int, _ type: Any.Type, _ key: (any CodingKey)?, _ action: Repair.Action, _ error: any Error,
        since mark: Int, under path: [PathComponent]? = nil
    ) {
        discardRepairs(from: mark)
        record(
            Repair(
                path: .path(path ?? self.path, key), expected: .typeName(type), found: document.found(valueIndex),
                action: action, reason: .summary(error)))
    }

    /// Whether an error may be absorbed by a lossy boundary: any error but cancellation, so a
    /// model's own validation error thrown from its `init(from:)` is absorbed (and reported as
    /// a repair) like a type mismatch; cancellation always propagates.
    static func isAbsorbable(_ error: any Error) -> Bool { !(error is CancellationError) }

    func recordTrailingCommas() {
        for (container, _) in document.trailingCommas {
            let node = document[container]
            record(
                Repair(
                    path: JSONPath.string(document.path(to: container)), expected: node.kind == .array ? "array" : "object",
                    found: Repair.Found(kind: node.jsonKind, excerpt: ","), action: .ignoredTrailingComma))
        }
    }
}
