/// A comma after the last value of every non-empty object and array in JSON text:
/// `{"a":[1,],}`, the dirt JavaScript-minded backends send. One implementation for
/// ``DocumentRehearsal`` and BadBackend's proxy.
package enum TrailingCommas {
    /// `body` with a comma after the last value of each object and array that has one; the
    /// text inside strings, and whitespace, left as they were.
    package static func inserted(into body: [UInt8]) -> [UInt8] {
        // Where each comma goes: just after the last value of a container that has one.
        var insertions: [Int] = []
        // For each open container, whether it holds a value yet.
        var holdsValue: [Bool] = []
        var lastSignificant = -1
        JSONStructure.forEachStructuralByte(in: body) { index, byte in
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                return
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if !holdsValue.isEmpty { holdsValue[holdsValue.count - 1] = true }
                holdsValue.append(false)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if holdsValue.popLast() == true { insertions.append(lastSignificant + 1) }
            default:
                // A value's first byte, or a string's closing quote: the last byte a comma follows.
                if !holdsValue.isEmpty { holdsValue[holdsValue.count - 1] = true }
            }
            lastSignificant = index
        }
        guard !insertions.isEmpty else { return body }
        var dirty: [UInt8] = []
        dirty.reserveCapacity(body.count + insertions.count)
        var next = insertions.makeIterator()
        var insertion = next.next()
        for (index, byte) in body.enumerated() {
            while insertion == index {
                dirty.append(UInt8(ascii: ","))
                insertion = next.next()
            }
            dirty.append(byte)
        }
        while insertion != nil {
            dirty.append(UInt8(ascii: ","))
            insertion = next.next()
        }
        return dirty
    }

}
