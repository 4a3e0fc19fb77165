import Foundation

/// How much a ``SavedAnswerStore`` keeps: every store holds to all four, the least recently
/// used answers going first.
public struct SavedAnswerLimits: Hashable, Sendable {
    /// The most bytes all answers take together (``SavedAnswer/byteCount``).
    public var maximumTotalBytes: Int
    /// The most bytes one answer may take; a larger one is never saved.
    public var maximumEntryBytes: Int
    /// The most answers kept.
    public var maximumEntries: Int
    /// How long an answer is kept after ``SavedAnswer/savedAt``; an older one is never given
    /// out and is removed.
    public var maximumAge: Duration {
        didSet { maximumAgeSeconds = Self.seconds(maximumAge) }
    }
    /// ``maximumAge`` in seconds, kept beside it: a save checks it twice, and reading a
    /// `Duration`'s components costs more than the rest of the check.
    private var maximumAgeSeconds: Double

    /// Limits; by default 16 MiB in all, 1 MiB an answer, 10,000 answers, 7 days.
    public init(
        maximumTotalBytes: Int = 16 << 20, maximumEntryBytes: Int = 1 << 20, maximumEntries: Int = 10_000,
        maximumAge: Duration = .seconds(7 * 24 * 3600)
    ) {
        self.maximumTotalBytes = maximumTotalBytes
        self.maximumEntryBytes = maximumEntryBytes
        self.maximumEntries = maximumEntries
        self.maximumAge = maximumAge
        maximumAgeSeconds = Self.seconds(maximumAge)
    }

    /// Whether `answer` may be kept at all: within ``maximumEntryBytes`` and the total.
    public func admits(_ answer: SavedAnswer) -> Bool {
        admits(bytes: answer.byteCount)
    }

    /// Whether an answer of `bytes` (its ``SavedAnswer/byteCount``) may be kept at all.
    package func admits(bytes: Int) -> Bool {
        maximumEntries > 0 && bytes <= maximumEntryBytes && bytes <= maximumTotalBytes
    }

    /// Whether `answer` is past ``maximumAge`` at `now`.
    public func hasExpired(_ answer: SavedAnswer, at now: Date) -> Bool {
        hasExpired(savedAt: answer.savedAt, at: now)
    }

    /// Whether an answer saved at `savedAt` is past ``maximumAge`` at `now`.
    package func hasExpired(savedAt: Date, at now: Date) -> Bool {
        now.timeIntervalSince(savedAt) > maximumAgeSeconds
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
