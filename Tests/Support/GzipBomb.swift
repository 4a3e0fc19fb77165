/// Small gzip bodies that inflate to far more: a run of `x`s as one fixed-Huffman deflate block
/// of 258-byte back-references, 13 bits each (about 160 times smaller than what it inflates to).
public enum GzipBomb {
    /// A gzip stream that inflates to at least `inflatedBytes` bytes of `x`.
    ///
    /// Its trailer's CRC is not computed (zeros): a client that inflates it whole fails on the
    /// last bytes, long after any limit that matters here.
    public static func bytes(inflatingTo inflatedBytes: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.append(0b1, count: 1)  // the last block
        bits.append(0b01, count: 2)  // fixed Huffman codes
        bits.appendCode(0x30 + Int(UInt8(ascii: "x")), length: 8)  // the literal `x`
        for _ in 0..<((inflatedBytes + 257) / 258) {
            bits.appendCode(0xC5, length: 8)  // length code 285: 258 bytes
            bits.appendCode(0, length: 5)  // distance code 0: one byte back
        }
        bits.appendCode(0, length: 7)  // end of block
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        return header + bits.bytes + [UInt8](repeating: 0, count: 8)
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        var used = 8

        /// `count` bits of `value`, least significant first, as deflate packs its header fields.
        mutating func append(_ value: Int, count: Int) {
            for bit in 0..<count { push((value >> bit) & 1) }
        }

        /// A Huffman code, most significant bit first, as deflate packs its codes.
        mutating func appendCode(_ code: Int, length: Int) {
            for bit in stride(from: length - 1, through: 0, by: -1) { push((code >> bit) & 1) }
        }

        private mutating func push(_ bit: Int) {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            bytes[bytes.count - 1] |= UInt8(bit) << used
            used += 1
        }
    }
}
