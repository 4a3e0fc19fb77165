import Foundation

/// Receives the repairs of each decode, for logging or analytics.
///
/// Set one on ``ResilientJSONDecoder/reporter``; it is called once per top-level decode
/// that made at least one repair, after the value was decoded. Property wrappers used with
/// other decoders reach the reporter stored under ``Swift/CodingUserInfoKey/repairReporter``
/// in the decoder's `userInfo`, one repair at a time.
public protocol RepairReporter: Sendable {
    /// Called with the repairs made while decoding a value of `type`; never with an empty list.
    func report(_ repairs: [Repair], decoding type: Any.Type)
}

/// A reporter that keeps every repair it receives, for tests and for showing in a debug screen.
public final class RepairLog: RepairReporter, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Repair] = []

    /// An empty log.
    public init() {}

    /// Every repair reported so far, oldest first.
    public var repairs: [Repair] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    public func report(_ repairs: [Repair], decoding type: Any.Type) {
        lock.lock()
        stored.append(contentsOf: repairs)
        lock.unlock()
    }

    /// Forgets what was reported.
    public func removeAll() {
        lock.lock()
        stored.removeAll()
        lock.unlock()
    }
}

extension CodingUserInfoKey {
    /// The `userInfo` key under which a decoder carries a ``RepairReporter``.
    ///
    /// ``ResilientJSONDecoder`` sets it itself; set it on another decoder (Foundation's
    /// `JSONDecoder`, say) so that Backstop's property wrappers and
    /// ``UnknownCaseRepresentable`` report there too.
    public static let repairReporter = CodingUserInfoKey(rawValue: "backstop.repairReporter")!
}

/// Delivers a repair made inside a `Decodable` to whoever is collecting for that decoder.
enum RepairSink {
    /// Records the repair that `make` builds at the decoder's path (then `key`), when anyone
    /// collects: nothing is built for another decoder without a reporter.
    static func record(in decoder: any Decoder, appending key: (any CodingKey)? = nil, _ make: (_ path: RepairText) -> Repair) {
        if let state = decoder as? DecoderState {
            state.record(make(.path(state.path, key)))
        } else if let reporter = decoder.userInfo[.repairReporter] as? any RepairReporter {
            let path = decoder.codingPath + (key.map { [$0] } ?? [])
            reporter.report([make(.text(JSONPath.string(path)))], decoding: Any.self)
        }
    }
}
