import Backstop
import BackstopSQLite
import Foundation
import InMemoryLogging
import Logging

/// A folder of its own for one test's store, removed when the test ends, and what the test
/// saves there.
final class StoreFolder {
    let url: URL
    let logs = InMemoryLogHandler()

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("backstop-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The store's file.
    var file: URL { url.appendingPathComponent("answers.sqlite") }

    /// A logger whose lines the test reads in ``logs``.
    var logger: Logger {
        let logs = logs
        var logger = Logger(label: "test") { _ in logs }
        logger.logLevel = .debug
        return logger
    }

    /// The messages logged so far.
    var messages: [String] { logs.entries.map(\.message.description) }

    /// A store on ``file``.
    func store(limits: SavedAnswerLimits = SavedAnswerLimits()) -> SQLiteAnswerStore {
        SQLiteAnswerStore(fileURL: file, limits: limits, logger: logger)
    }

    /// Every byte of the store's file and its journal, as they are on disk now.
    func bytesOnDisk() -> Data {
        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] {
            if let data = FileManager.default.contents(atPath: file.path + suffix) { bytes.append(data) }
        }
        return bytes
    }
}

/// Keys and answers for the tests: answer `index` of `user`.
enum Answers {
    static func key(_ index: Int, user: String? = "user-1") -> SavedAnswerKey {
        SavedAnswerKey(
            method: "GET", url: "https://api.example.com/groups/\(index)", representation: ["accept: application/json"], user: user)
    }

    static func answer(_ index: Int, user: String? = "user-1", bytes: Int = 100, savedAt: Date = Date()) -> SavedAnswer {
        let unit = Array("{\"group\":\(index)}".utf8)
        return SavedAnswer(
            key: key(index, user: user), status: 200, contentType: "application/json", entityTag: "\"v\(index)\"",
            lastModified: "Sun, 29 Nov 2026 10:42:00 GMT", body: Data((0..<bytes).map { unit[$0 % unit.count] }), savedAt: savedAt)
    }
}

extension SavedAnswerStore {
    /// Saves `answer`, ignoring what was evicted for it.
    func save(_ answer: SavedAnswer) {
        save(answer) { _ in }
    }
}
