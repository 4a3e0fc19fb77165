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

    /// A number of magnitude 2^53 or more, read as Foundation reads it once a `Double` can
    /// no longer be trusted: through `Decimal`. That keeps the significant digits that fit
    /// in 128 bits and drops trailing zeros; the digits left must fit in a `UInt64`, and are
    /// scaled by the exponent with any fraction truncated. So `9007199254740993.5` is
    /// 9007199254740993, but `1234567890123456789.25`, whose digits overflow, does not fit,
    /// even though its integer part would.
    private static func exactWholeNumber<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>, as: T.Type) -> T? {
        var digits: [UInt8] = []
        var exponent = 0
        var negative = false
        var i = 0
        if text.first == UInt8(ascii: "-") {
            negative = true
            i = 1
        }
        var pointSeen = false
        while i < text.count {
            let c = text[i]
            if c == UInt8(ascii: ".") {
                pointSeen = true
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                break
            } else {
                if pointSeen { exponent -= 1 }
                if c != UInt8(ascii: "0") || !digits.isEmpty { digits.append(c &- 48) }
            }
            i += 1
        }
        if i < text.count {
            var e = 0
            var sign = 1
            i += 1
            if text[i] == UInt8(ascii: "-") {
                sign = -1
                i += 1
            } else if text[i] == UInt8(ascii: "+") {
                i += 1
            }
            while i < text.count {
                e = min(e * 10 + Int(text[i] &- 48), 100_000)
                i += 1
            }
            exponent += sign * e
        }
        // Decimal's 128-bit significand holds 39 digits below 2^128, else 38; the rest are dropped.
        let kept = digits.count >= 39 && digits.prefix(39).lexicographicallyPrecedes(maximumDecimalDigits) ? 39 : 38
        if digits.count > kept {
            exponent += digits.count - kept
            digits.removeLast(digits.count - kept)
        }
        while let last = digits.last, last == 0 {
            digits.removeLast()
            exponent += 1
        }
        var magnitude: UInt64 = 0
        for digit in digits {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.addingReportingOverflow(UInt64(digit))
            if o1 || o2 { return nil }
            magnitude = next
        }
        if exponent < 0 {
            for _ in 0..<min(-exponent, 20) { magnitude /= 10 }
        } else {
            for _ in 0..<exponent where magnitude != 0 {
                let (times10, o) = magnitude.multipliedReportingOverflow(by: 10)
                if o { return nil }
                magnitude = times10
            }
        }
        guard negative else { return T(exactly: magnitude) }
        guard T.isSigned else { return magnitude == 0 ? 0 : nil }
        if let value = T(exactly: magnitude) { return 0 - value }
        // Foundation negates a positive T and so cannot reach T.min here; the value is
        // valid and exact, so it is not worth copying that.
        return T.Magnitude(exactly: magnitude) == T.min.magnitude ? T.min : nil
    }

    /// The digits of 2^128, against which a 39-digit significand is compared.
    private static let maximumDecimalDigits: [UInt8] = Array("340282366920938463463374607431768211456".utf8).map { $0 - 48 }

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
            if text[i] == UInt8(ascii: "-") {
                sign = -1
                i += 1
            } else if text[i] == UInt8(ascii: "+") {
                i += 1
            }
            var e = 0
            while i < count {
                e = min(e * 10 + Int(text[i] &- 48), 1_000_000)
                i += 1
            }
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
            && mantissa << (upperBit + 9) == high
        {
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

    /// Whether converting `double` to a `Float` might round differently from converting the
    /// text itself, as Foundation does with `strtof`: when `double` lies exactly halfway
    /// between two `Float`s (the 29 bits a `Float` drops read 1000…0), or among `Float`'s
    /// subnormals, which drop more bits. Elsewhere a single rounding gives the same `Float`.
    @inline(__always)
    private static func mayRoundTwice(_ double: Double) -> Bool {
        double.significandBitPattern & 0x1FFF_FFFF == 0x1000_0000
            || (double != 0 && double.magnitude < Double(Float.leastNormalMagnitude))
    }

    /// The text rounded to a `Float` in one step, with Foundation's overflow and underflow rules.
    @inline(never)
    private static func directFloat(_ text: UnsafeBufferPointer<UInt8>) -> Float? {
        guard let value = Float(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        if value == 0 && !isZero(text) { return nil }
        return value
    }

    /// Whether the number's digits are all zeros, whatever its exponent.
    private static func isZero(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in text {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            if byte > UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { return false }
        }
        return true
    }

    /// Falls back to the standard library's parser, which rounds correctly in every case
    /// and ignores the C locale.
    private static func slowDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let value = Double(String(decoding: text, as: UTF8.self)) else { return nil }
        guard value.isFinite else { return nil }
        // Foundation rejects a non-zero number that underflows to zero.
        if value == 0 && !isZero(text) { return nil }
        return value
    }

    /// A `Double`, `Float` or other binary floating-point value; `nil` when it overflows, or
    /// when a non-zero number rounds to zero, as Foundation decides.
    @inline(__always)
    static func floatingPoint<T: BinaryFloatingPoint>(_ text: UnsafeBufferPointer<UInt8>, as: T.Type) -> T? {
        guard let double = double(text) else { return nil }
        if T.self == Double.self { return T(double) }
        if T.self == Float.self && mayRoundTwice(double) { return directFloat(text).map { T($0) } }
        let value = T(double)
        guard value.isFinite, value != 0 || double == 0 else { return nil }
        return value
    }

}
