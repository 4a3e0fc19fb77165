import Foundation

/// What a ``ContractDriftRecorder`` saw: which fields of which operations the backend broke,
/// how, how often and since when; `Codable`, for an app to upload or write to disk.
///
/// Dates are written as ISO 8601 text whatever the encoder's date strategy, so a report reads
/// the same in any tool. Reading one refuses a count (an entry's, or a dropped count) below
/// zero or that is no whole number `Int` holds with a `DecodingError` at that count, whoever
/// wrote the file.
///
/// `backstop report FILE.json` renders one as a table for a backend team.
public struct ContractDriftReport: Codable, Sendable, Hashable {
    /// One kind of defect of one field of one operation.
    public struct Entry: Codable, Sendable, Hashable {
        /// The operation, as ``Endpoint/operationID`` names it.
        public var operation: String
        /// Where in the body, array indices written `[*]`: `$.data[*].id`.
        public var path: String
        /// What the decoder did: `coerced`, `defaultedBecauseNull`, `dropped` …
        public var action: String
        /// What the document held there: `string`, `null`, `missing` …
        public var found: String
        /// How many times.
        public var count: Int
        /// When first and last seen.
        public var firstSeen: Date
        /// When last seen.
        public var lastSeen: Date
        /// One short excerpt of what was found, escaped; empty when there was nothing.
        public var sample: String

        /// An entry, as the recorder or a test makes one.
        public init(
            operation: String, path: String, action: String, found: String, count: Int, firstSeen: Date, lastSeen: Date,
            sample: String
        ) {
            self.operation = operation
            self.path = path
            self.action = action
            self.found = found
            self.count = count
            self.firstSeen = firstSeen
            self.lastSeen = lastSeen
            self.sample = sample
        }
    }

    /// The version of this format; a reader refuses a newer one.
    public var version: Int
    /// Every entry, most frequent first.
    public var entries: [Entry]
    /// Repairs not kept because the recorder was full: they belong to entries it had no room for.
    public var droppedRepairs: Int
    /// Repairs whose operation the metric `backstop_contract_drift_total` does not name: the
    /// recorder already had counters for ``ContractDriftRecorder/maximumOperations`` operations,
    /// so it counted them under ``ContractDriftRecorder/otherOperation``. Their entries are kept
    /// as any others are. 0 in a report written before this count existed.
    public var droppedOperationLabels: Int

    /// The format version this build writes and reads.
    public static let currentVersion = 1

    /// A report.
    ///
    /// - Parameters:
    ///   - version: The format's version; ``currentVersion`` unless given.
    ///   - entries: The entries; sorted most frequent first.
    ///   - droppedRepairs: Repairs the recorder had no room for.
    ///   - droppedOperationLabels: Repairs the metric counted under ``ContractDriftRecorder/otherOperation``.
    public init(version: Int = currentVersion, entries: [Entry], droppedRepairs: Int = 0, droppedOperationLabels: Int = 0) {
        self.version = version
        self.entries = entries.sorted { ($0.count, $1.operation, $1.path) > ($1.count, $0.operation, $0.path) }
        self.droppedRepairs = droppedRepairs
        self.droppedOperationLabels = droppedOperationLabels
    }
}

extension ContractDriftReport {
    private enum CodingKeys: String, CodingKey {
        case version, entries, droppedRepairs, droppedOperationLabels
    }

    /// Reads a report; `droppedOperationLabels` may be missing (0), and no count may be below zero.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            version: try container.decode(Int.self, forKey: .version),
            entries: try container.decode([Entry].self, forKey: .entries),
            droppedRepairs: try Self.count(.droppedRepairs, in: container),
            droppedOperationLabels: try Self.count(.droppedOperationLabels, in: container, ifMissing: 0))
    }

    /// Writes the report.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(entries, forKey: .entries)
        try container.encode(droppedRepairs, forKey: .droppedRepairs)
        try container.encode(droppedOperationLabels, forKey: .droppedOperationLabels)
    }

    /// The count at `key`: a whole number from 0 to `Int.max`, or `ifMissing` when there is none and that is allowed.
    fileprivate static func count<Key: CodingKey>(
        _ key: Key, in container: KeyedDecodingContainer<Key>, ifMissing: Int? = nil
    ) throws -> Int {
        if let ifMissing, !container.contains(key) { return ifMissing }
        guard let count = try? container.decode(Int.self, forKey: key) else {
            // JSONDecoder says only "not valid JSON", without where, of a number that is no Int.
            if let number = try? container.decode(Double.self, forKey: key) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "a count is a whole number from 0 to \(Int.max), not \(number)")
            }
            return try container.decode(Int.self, forKey: key)
        }
        guard count >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "a count is 0 or more, not \(count)")
        }
        return count
    }
}

extension ContractDriftReport.Entry {
    private enum CodingKeys: String, CodingKey {
        case operation, path, action, found, count, firstSeen, lastSeen, sample
    }

    /// Reads an entry whose dates are ISO 8601 text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func date(_ key: CodingKeys) throws -> Date {
            let text = try container.decode(String.self, forKey: key)
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not an ISO 8601 date: \(text)")
            }
            return date
        }
        self.init(
            operation: try container.decode(String.self, forKey: .operation),
            path: try container.decode(String.self, forKey: .path),
            action: try container.decode(String.self, forKey: .action),
            found: try container.decode(String.self, forKey: .found),
            count: try ContractDriftReport.count(.count, in: container),
            firstSeen: try date(.firstSeen), lastSeen: try date(.lastSeen),
            sample: try container.decode(String.self, forKey: .sample))
    }

    /// Writes the entry with its dates as ISO 8601 text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(operation, forKey: .operation)
        try container.encode(path, forKey: .path)
        try container.encode(action, forKey: .action)
        try container.encode(found, forKey: .found)
        try container.encode(count, forKey: .count)
        try container.encode(firstSeen.formatted(.iso8601), forKey: .firstSeen)
        try container.encode(lastSeen.formatted(.iso8601), forKey: .lastSeen)
        try container.encode(sample, forKey: .sample)
    }
}
