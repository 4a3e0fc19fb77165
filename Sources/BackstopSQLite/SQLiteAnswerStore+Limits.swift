import Foundation

extension SQLiteAnswerStore {
    /// How much an ``SQLiteAnswerStore`` keeps: every bound holds after each write, the least
    /// recently used answers going first.
    public struct Limits: Sendable, Equatable {
        /// The most the saved answers may add up to, keys and answers counted, in bytes.
        public var maximumTotalBytes: Int
        /// The most one answer may take, key counted, in bytes: a larger one is not saved.
        public var maximumEntryBytes: Int
        /// The most answers kept.
        public var maximumEntries: Int
        /// How long an answer is kept after it was saved: an older one is neither answered
        /// nor kept.
        public var maximumAge: Duration

        /// Limits for an ``SQLiteAnswerStore``; by default 50 MiB in all, 2 MiB an answer,
        /// 10,000 answers, 7 days.
        public init(
            maximumTotalBytes: Int = 50 << 20, maximumEntryBytes: Int = 2 << 20, maximumEntries: Int = 10_000,
            maximumAge: Duration = .seconds(7 * 24 * 3600)
        ) {
            self.maximumTotalBytes = maximumTotalBytes
            self.maximumEntryBytes = maximumEntryBytes
            self.maximumEntries = maximumEntries
            self.maximumAge = maximumAge
        }
    }
}
