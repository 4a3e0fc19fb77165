/// `format: date-time` text: the RFC 3339 shape swift-openapi-runtime's default
/// `ISO8601DateTranscoder` reads (`2024-05-01T10:00:00Z` or `…+02:00`, no fractional seconds),
/// and the common wrong shapes rewritten to it.
enum DateTimeText {
    /// Whether `bytes` are `YYYY-MM-DDTHH:MM:SS` then `Z` or `±HH:MM`.
    static func isRFC3339<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8, Bytes.Index == Int {
        let base = bytes.startIndex
        func digits(_ offsets: [Int]) -> Bool { offsets.allSatisfy { bytes[base + $0] &- 48 < 10 } }
        func byte(_ offset: Int) -> UInt8 { bytes[base + offset] }
        guard bytes.count == 20 || bytes.count == 25 else { return false }
        guard digits([0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]), byte(4) == 0x2D, byte(7) == 0x2D, byte(10) == UInt8(ascii: "T"),
            byte(13) == 0x3A, byte(16) == 0x3A
        else { return false }
        if bytes.count == 20 { return byte(19) == UInt8(ascii: "Z") }
        return (byte(19) == UInt8(ascii: "+") || byte(19) == UInt8(ascii: "-")) && digits([20, 21, 23, 24]) && byte(22) == 0x3A
    }

    /// `text` as RFC 3339 when it is a date-time in a common wrong shape: a space or `t` for
    /// `T`, no seconds, fractional seconds (dropped), no zone (read as UTC), a zone written
    /// `z`, `+HHMM` or `+HH`, a date alone (midnight UTC), or epoch seconds; `nil` otherwise.
    static func repaired(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        if !bytes.isEmpty, bytes.allSatisfy({ $0 &- 48 < 10 || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }),
            bytes.dropFirst().allSatisfy({ $0 != UInt8(ascii: "-") }), let seconds = Double(text), seconds.isFinite,
            abs(seconds) < 253_402_300_800
        {
            return epoch(Int64(seconds.rounded(.down)))
        }
        var position = 0
        func number(_ count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let digit = bytes[position + offset] &- 48
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            position += count
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }
        guard let year = number(4), skip(0x2D), let month = number(2), skip(0x2D), let day = number(2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var zone = "Z"
        if position < bytes.count {
            guard [UInt8(ascii: "T"), UInt8(ascii: "t"), 0x20].contains(bytes[position]) else { return nil }
            position += 1
            guard let h = number(2), skip(0x3A), let m = number(2), h < 24, m < 60 else { return nil }
            (hour, minute) = (h, m)
            if skip(0x3A) {
                guard let s = number(2), s <= 60 else { return nil }
                second = s
            }
            if skip(UInt8(ascii: ".")) || skip(UInt8(ascii: ",")) {
                let start = position
                while position < bytes.count, bytes[position] &- 48 < 10 { position += 1 }
                guard position > start else { return nil }
            }
            _ = skip(0x20)
            if position < bytes.count {
                let sign = bytes[position]
                if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
                    position += 1
                } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                    position += 1
                    guard let zoneHours = number(2), zoneHours < 24 else { return nil }
                    var zoneMinutes = 0
                    if position < bytes.count {
                        _ = skip(0x3A)
                        guard let minutes = number(2), minutes < 60 else { return nil }
                        zoneMinutes = minutes
                    }
                    zone =
                        zoneHours == 0 && zoneMinutes == 0 ? "Z" : "\(Character(Unicode.Scalar(sign)))\(two(zoneHours)):\(two(zoneMinutes))"
                } else {
                    return nil
                }
            }
        }
        guard position == bytes.count else { return nil }
        return "\(four(year))-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))\(zone)"
    }

    /// Seconds since 1970 in UTC, by the civil calendar (Howard Hinnant's `civil_from_days`).
    static func epoch(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let ofDay = Int(seconds - days * 86_400)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        let year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
        return "\(four(year))-\(two(month))-\(two(day))T\(two(ofDay / 3600)):\(two(ofDay / 60 % 60)):\(two(ofDay % 60))Z"
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    private static func four(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
