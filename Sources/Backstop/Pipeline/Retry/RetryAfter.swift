import Foundation
import HTTPTypes

/// The wait a `Retry-After` header asks for (RFC 9110 §10.2.3).
enum RetryAfter {
    /// The wait in `fields`, or `nil` when there is no header or it cannot be read.
    ///
    /// Delay seconds are taken as sent; an HTTP date is measured from the response's `Date`
    /// header, so the device's clock does not matter, else from `now`. A date in the past is
    /// no wait.
    static func duration(in fields: HTTPFields, now: Date = Date()) -> Duration? {
        guard let value = fields[.retryAfter]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // Too many digits to count is too long to wait for.
            return Int(value).map { .seconds($0) }
        }
        guard let date = httpDate(value) else { return nil }
        let sent = fields[.date].flatMap(httpDate) ?? now
        return .seconds(max(0, Int(date.timeIntervalSince(sent).rounded(.up))))
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or one of the obsolete RFC 850
    /// and asctime forms, which RFC 9110 §5.6.7 requires recipients to accept too.
    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
