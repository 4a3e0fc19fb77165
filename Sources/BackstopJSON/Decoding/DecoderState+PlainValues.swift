/// The values a well-formed payload holds, read without the coding key that errors and repairs
/// name: a keyed container tries these first and calls the full `unwrap` readers only when they
/// answer `nil`.
///
/// Passing a member's key to a reader boxes it as `any CodingKey` and destroys the box after,
/// about 150 instructions per member (4% of decoding a three-member object); here nothing is
/// boxed, so only values that need an error or a repair pay for it.
extension DecoderState {
    /// The text of a string node with nothing to unescape or repair.
    @inline(__always)
    func plainString(_ valueIndex: Int) -> String? {
        let node = document[valueIndex]
        guard node.kind == .string && node.flags.isEmpty else { return nil }
        return String(decoding: document.raw(node), as: UTF8.self)
    }

    /// An integer written without fraction or exponent that fits `T`.
    @inline(__always)
    func plainInteger<T: FixedWidthInteger>(_ valueIndex: Int, as type: T.Type) -> T? {
        let node = document[valueIndex]
        guard node.kind == .number && node.flags.contains(.integer) else { return nil }
        return JSONNumber.integer(document.raw(node), negative: node.flags.contains(.negative), as: T.self)
    }

    /// `true` or `false`.
    @inline(__always)
    func plainBool(_ valueIndex: Int) -> Bool? {
        switch document[valueIndex].kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    /// A finite number that `T` represents.
    @inline(__always)
    func plainFloat<T: BinaryFloatingPoint>(_ valueIndex: Int, as type: T.Type) -> T? {
        let node = document[valueIndex]
        guard node.kind == .number && !node.flags.contains(.nonFinite) else { return nil }
        return JSONNumber.floatingPoint(document.raw(node), as: T.self)
    }
}
