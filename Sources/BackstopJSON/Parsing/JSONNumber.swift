import Foundation

/// Converts the bytes of a validated JSON number into Swift numbers, with Foundation's results.
enum JSONNumber {
    /// Parses an integer written without fraction or exponent; `nil` when it does not fit in `T`.
    @inline(__always)
    static func integer<T: FixedWidthInteger>(_ digits: UnsafeBufferPointer<UInt8>, negative: Bool, as: T.Type) -> T? {
        var i = negative ? 1 : 0
        var value: T = 0
        let count = digits.count
        if negative {
            while i < count {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(T(digits[i] &- 48))
                if o1 || o2 { return nil }
                value = next
                i += 1
            }
        } else {
            while i < count {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.addingReportingOverflow(T(digits[i] &- 48))
                if o1 || o2 { return nil }
                value = next
                i += 1
            }
        }
        return value
    }

    /// A number written with a fraction or an exponent, read as a whole number the way
    /// Foundation does: through a `Double` that must be integral, and exactly from the
    /// text once the magnitude reaches 2^53, where a `Double` can no longer be trusted.
    static func wholeNumber<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>, as: T.Type) -> T? {
        guard let double = self.double(text) else { return underflowsToZero(text) ? 0 : nil }
        guard let value = T(exactly: double) else { return nil }
        if abs(double) < 9_007_199_254_740_992 { return value }
        return exactWholeNumber(text, as: T.self)
    }

    /// Whether a number too small for a `Double` rounds to zero (`1e-400`), rather than overflowing.
    ///
    /// Foundation rejects such a number as a `Double` but reads it as the integer 0, because
    /// its integer path converts through `strtod`, which rounds it to zero without complaint.
    private static func underflowsToZero(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        Double(String(decoding: text, as: UTF8.self)) == 0
    }

    /// The integer part of a decimal number, computed from its digits; `nil` on overflow.
    private static func exactWholeNumber<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>, as: T.Type) -> T? {
        var digits: [UInt8] = []
        var exponent = 0
        var negative = false
        var i = 0
        if text.first == UInt8(ascii: "-") { negative = true; i = 1 }
        var pointSeen = false
        while i < text.count {
            let c = text[i]
            if c == UInt8(ascii: ".") { pointSeen = true } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { break } else {
                digits.append(c &- 48)
                if pointSeen { exponent -= 1 }
            }
            i += 1
        }
        if i < text.count {
            var e = 0
            var sign = 1
            i += 1
            if text[i] == UInt8(ascii: "-") { sign = -1; i += 1 } else if text[i] == UInt8(ascii: "+") { i += 1 }
            while i < text.count { e = min(e * 10 + Int(text[i] &- 48), 100_000); i += 1 }
            exponent += sign * e
        }
        let wholeDigits = digits.count + exponent
        guard wholeDigits <= 40 else { return nil }
        var value: T = 0
        for position in 0..<max(wholeDigits, 0) {
            let digit = position < digits.count ? digits[position] : 0
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative
                ? times10.subtractingReportingOverflow(T(digit))
                : times10.addingReportingOverflow(T(digit))
            if o1 || o2 { return nil }
            value = next
        }
        return value
    }

    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// A correctly rounded `Double`, bit-identical to `strtod`; `nil` when the magnitude overflows.
    static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        // Clinger's fast path: up to 19 digits whose value is exact in a Double,
        // scaled by an exact power of ten, is one correctly rounded operation.
        var i = 0
        let count = text.count
        let negative = text[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        var mantissa: UInt64 = 0
        var digitCount = 0
        var exponent = 0
        while i < count, text[i] &- 48 < 10 {
            if digitCount < 19 {
                mantissa = mantissa &* 10 &+ UInt64(text[i] &- 48)
                if mantissa != 0 { digitCount += 1 }
            } else {
                digitCount += 1
            }
            i += 1
        }
        if i < count && text[i] == UInt8(ascii: ".") {
            i += 1
            while i < count, text[i] &- 48 < 10 {
                if digitCount < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(text[i] &- 48)
                    if mantissa != 0 { digitCount += 1 }
                    exponent -= 1
                } else {
                    digitCount += 1
                }
                i += 1
            }
        }
        if i < count {
            i += 1
            var sign = 1
            if text[i] == UInt8(ascii: "-") { sign = -1; i += 1 } else if text[i] == UInt8(ascii: "+") { i += 1 }
            var e = 0
            while i < count { e = min(e * 10 + Int(text[i] &- 48), 1_000_000); i += 1 }
            exponent += sign * e
        }
        if digitCount <= 19 && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 { value /= exactPowersOfTen[-exponent] } else { value *= exactPowersOfTen[exponent] }
            return negative ? -value : value
        }
        if mantissa == 0 && digitCount == 0 { return negative ? -0.0 : 0.0 }
        if digitCount <= 19 && mantissa <= 1 << 53 && exponent > 22 && exponent <= 22 + 15 {
            // A small mantissa can absorb part of a large exponent exactly.
            let shifted = Double(mantissa) * exactPowersOfTen[exponent - 22]
            if shifted <= 9_007_199_254_740_992 {
                let value = shifted * 1e22
                return negative ? -value : value
            }
        }
        if digitCount <= 19, let value = eiselLemire(mantissa, exponent) {
            return negative ? -value : value
        }
        return slowDouble(text)
    }

    /// The correctly rounded `Double` nearest `significand` × 10^`exponent`, or `nil` when
    /// the fast algorithm cannot decide (subnormals, overflow, rare ties): then `strtod` does.
    ///
    /// Eisel-Lemire (Lemire, "Number Parsing at a Gigabyte per Second", 2021): multiply the
    /// normalized significand by a 128-bit approximation of 5^exponent and keep the top bits.
    static func eiselLemire(_ significand: UInt64, _ exponent: Int) -> Double? {
        guard significand != 0, exponent >= -342, exponent <= 308 else { return nil }
        let leadingZeros = significand.leadingZeroBitCount
        let w = significand << leadingZeros
        let index = 2 * (exponent + 342)
        var (high, low) = w.multipliedFullWidth(by: powersOfFive[index])
        // 55 bits are needed (52 stored, the hidden bit, one to round, one to spare); when
        // all the bits below them are ones, the low half of the power can still carry in.
        let precisionMask: UInt64 = .max >> 55
        if high & precisionMask == precisionMask {
            let (secondHigh, _) = w.multipliedFullWidth(by: powersOfFive[index + 1])
            let (sum, carry) = low.addingReportingOverflow(secondHigh)
            low = sum
            if carry { high &+= 1 }
            if low == .max && (exponent < -27 || exponent > 55) { return nil }
        }
        let upperBit = Int(high >> 63)
        var mantissa = high >> (upperBit + 9)
        var power2 = ((217_706 &* exponent) >> 16) + 63 + upperBit - leadingZeros + 1023
        guard power2 > 0 else { return nil }
        // Exactly halfway between two doubles: round to even.
        if low <= 1 && exponent >= -4 && exponent <= 23 && mantissa & 3 == 1
            && mantissa << (upperBit + 9) == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= 2 << 52 {
            mantissa = 1 << 52
            power2 += 1
        }
        mantissa &= ~(1 << 52)
        guard power2 < 0x7FF else { return nil }
        return Double(bitPattern: mantissa | UInt64(power2) << 52)
    }

    /// Falls back to the standard library's parser, which rounds correctly in every case
    /// and ignores the C locale.
    private static func slowDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let value = Double(String(decoding: text, as: UTF8.self)) else { return nil }
        guard value.isFinite else { return nil }
        // Foundation rejects a non-zero number that underflows to zero.
        if value == 0 {
            for byte in text {
                if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
                if byte > UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { return nil }
            }
        }
        return value
    }

    /// A `Double`, `Float` or other binary floating-point value; `nil` when it overflows, or
    /// when a non-zero number rounds to zero, as Foundation decides.
    @inline(__always)
    static func floatingPoint<T: BinaryFloatingPoint>(_ text: UnsafeBufferPointer<UInt8>, as: T.Type) -> T? {
        guard let double = double(text) else { return nil }
        if T.self == Double.self { return T(double) }
        let value = T(double)
        guard value.isFinite, value != 0 || double == 0 else { return nil }
        return value
    }

}
