// The SQLite store in a process of its own, so that its tests can end the process and open the
// file again, the way an app is quit, or killed by the system in the middle of a write.
//
//     SQLiteStoreProbe save <file> <first> <count> <bodyBytes>    save answers first..<first+count, flush, exit
//     SQLiteStoreProbe check <file> <first> <count> <bodyBytes>   print {"found": N, "intact": N, "movedAside": B}
//     SQLiteStoreProbe churn <file> <bodyBytes>                   save batches without end, printing
//                                                                 "written N" once answers 0..<N are on disk
//
// Answer i is saved under `SQLiteStoreProbe.key(i)` with a body made from i, so `check` can
// tell an answer that came back whole from one that came back damaged.
import Backstop
import BackstopSQLite
import Foundation

/// The key answer `index` is saved under.
func key(_ index: Int) -> SavedAnswerKey {
    SavedAnswerKey(
        method: "GET", url: "https://api.example.com/groups/\(index)", representation: ["accept: application/json"], user: "user-1")
}

/// The body of answer `index`: its number, repeated to `bytes` bytes.
func body(_ index: Int, bytes: Int) -> Data {
    let unit = Array("{\"group\":\(index)}".utf8)
    return Data((0..<bytes).map { unit[$0 % unit.count] })
}

func answer(_ index: Int, bytes: Int) -> SavedAnswer {
    SavedAnswer(
        key: key(index), status: 200, contentType: "application/json", entityTag: "\"v\(index)\"", body: body(index, bytes: bytes),
        savedAt: Date())
}

/// A store with room for everything the probe saves.
func store(_ path: String) -> SQLiteAnswerStore {
    SQLiteAnswerStore(
        fileURL: URL(fileURLWithPath: path),
        limits: SavedAnswerLimits(maximumTotalBytes: 1 << 30, maximumEntryBytes: 1 << 24, maximumEntries: 1_000_000),
        logger: nil)
}

let arguments = CommandLine.arguments
switch (arguments.count, arguments.count > 1 ? arguments[1] : "") {
case (6, "save"):
    guard let first = Int(arguments[3]), let count = Int(arguments[4]), let bytes = Int(arguments[5]) else { exit(2) }
    let store = store(arguments[2])
    for index in first..<(first + count) { store.save(answer(index, bytes: bytes)) { _ in } }
    await store.flush()
    print("saved \(count)")
case (6, "check"):
    guard let first = Int(arguments[3]), let count = Int(arguments[4]), let bytes = Int(arguments[5]) else { exit(2) }
    let store = store(arguments[2])
    var found = 0
    var intact = 0
    for index in first..<(first + count) {
        guard let saved = await store.answer(for: key(index)) else { continue }
        found += 1
        if saved.body == body(index, bytes: bytes), saved.entityTag == "\"v\(index)\"", saved.status == 200 { intact += 1 }
    }
    let movedAside = FileManager.default.fileExists(atPath: arguments[2] + ".moved-aside")
    print("{\"found\": \(found), \"intact\": \(intact), \"movedAside\": \(movedAside)}")
case (4, "churn"):
    guard let bytes = Int(arguments[3]) else { exit(2) }
    let store = store(arguments[2])
    var written = 0
    while true {
        for index in written..<(written + 20) { store.save(answer(index, bytes: bytes)) { _ in } }
        await store.flush()
        written += 20
        // Unbuffered, so the test reads each line as soon as its answers are on disk.
        FileHandle.standardOutput.write(Data("written \(written)\n".utf8))
    }
default:
    print("usage: SQLiteStoreProbe save|check <file> <first> <count> <bodyBytes> | churn <file> <bodyBytes>")
    exit(2)
}
