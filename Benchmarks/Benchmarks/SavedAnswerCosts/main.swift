// Issue 50 item 9: what saved answers cost, side by side in one process.
//
//   SavedAnswerCosts stores [lookups] [memory|sqlite] [answers…]
//                                            lookup and eviction at 1,000 and 100,000 answers
//   SavedAnswerCosts calls <rounds> <block>  the stage's cost per call, and a call answered from the store
//
// `stores`: each store (SQLite, in memory) is filled to 1,000 and to 100,000 answers of 200 bytes
// (the most it keeps), then timed: `lookups` lookups of keys drawn at random (seeded), and 300
// saves of a new answer that each evict the least recently used one, each save timed until the
// store has written it (`flush()`; the in-memory store's save is the whole of it). Prints the
// medians and the 100,000 / 1,000 ratio: flat is near 1. Naming one store and one size runs only
// that, for counting its instructions under callgrind (the in-memory store's ratio in time is its
// cache misses in a larger table: its instructions per lookup are the same at both sizes).
//
// `calls`: `GET /items/7` (backend B's 55-byte envelope) through `APIClient` on
// `ClientPipeline(logging: nil, metrics: nil)`, interleaved in shuffled rounds of `block` calls,
// each figure the median over the rounds of its block's time over the first contender's:
// 1. over loopback (URLSession, the default transport, against `SocketServer` on 127.0.0.1):
//    no saved answers, the same again (the run's noise), saved in memory, saved in SQLite;
// 2. the same four on a transport that answers from memory at once: the call's own work, where
//    the stage's share is the largest it can be;
// 3. the loopback call beside the same call answered from the store because the network is
//    gone (a transport that fails at once as offline; no retry, which would wait), from SQLite
//    and from memory.
// Builds without SwiftNIO or Hummingbird, so that it builds in minutes.

import Backstop
import BackstopSQLite
import Dispatch
import Foundation
import Interleaving
import OpenAPIRuntime

let arguments = CommandLine.arguments
let mode = arguments.count > 1 ? arguments[1] : ""

/// A fresh folder for one store's file.
func storeFile(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("backstop-saved-answer-costs-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("\(name).sqlite")
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
    return file
}

func key(_ index: Int) -> SavedAnswerKey {
    SavedAnswerKey(
        method: "GET", url: "https://api.example.com/items/\(index)", representation: ["accept: application/json"], user: "user-1")
}

func answer(_ index: Int) -> SavedAnswer {
    SavedAnswer(key: key(index), status: 200, contentType: "application/json", body: Data(repeating: 0x61, count: 200), savedAt: Date())
}

func microseconds(_ duration: Duration) -> Double { Double(duration / .nanoseconds(1)) / 1000 }

/// A generator seeded alike in every run, for the keys looked up.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Lookup and eviction medians, in µs, of `store` filled with `count` answers.
func measure(_ store: any SavedAnswerStore, count: Int, lookups: Int, flush: () async -> Void) async -> (lookup: Double, evict: Double) {
    for index in 0..<count {
        store.save(answer(index)) { _ in }
        if index % 2_000 == 1_999 { await flush() }
    }
    await flush()
    var random = SplitMix(state: 50)
    var lookupTimes: [Double] = []
    for _ in 0..<lookups {
        let index = Int.random(in: 0..<count, using: &random)
        let start = ContinuousClock.now
        let found = await store.answer(for: key(index))
        lookupTimes.append(microseconds(ContinuousClock.now - start))
        precondition(found != nil, "answer \(index) of \(count) was not found")
    }
    await flush()
    var evictTimes: [Double] = []
    for index in count..<(count + 300) {
        let start = ContinuousClock.now
        store.save(answer(index)) { _ in }
        await flush()
        evictTimes.append(microseconds(ContinuousClock.now - start))
    }
    return (median(lookupTimes), median(evictTimes))
}

/// A transport with no network: every request fails at once, as offline.
struct OfflineTransport: ClientTransport {
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        throw TransportFailure(.offline)
    }
}

/// Backend B's envelope of item 7, as the loopback server and the in-memory transport send it.
let envelope = #"{"code":200,"msg":"OK","data":{"id":7,"name":"Item 7"}}"#
let endpoint = Endpoint<Item, NoModuleCodes>(.get, "items/7")

struct Item: Decodable, Sendable, Equatable {
    var id: Int
    var name: String
}

/// A client of backend B's envelope on `transport`, saving answers with `savedAnswers`.
func makeClient(_ baseURL: URL, _ transport: any ClientTransport, _ savedAnswers: SavedAnswers?, retry: RetryPolicy = .default)
    -> APIClient<NoModuleCodes>
{
    var pipeline = ClientPipeline(logging: nil, metrics: nil, retry: retry)
    pipeline.savedAnswers = savedAnswers
    return APIClient(
        baseURL: baseURL, contract: EnvelopeContract(code: "code", message: ["msg"], payload: "data", success: .codes([200])),
        pipeline: pipeline, transport: transport)
}

/// Answers every request at once from memory with ``envelope``.
struct MemoryTransport: ClientTransport {
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(envelope))
    }
}

/// Runs `requests` interleaved and prints each one's median per call and its ratio to the first.
func report(_ title: String, _ names: [String], _ requests: [@Sendable () async throws -> Item], rounds: Int, block: Int) async throws {
    for request in requests {
        for _ in 0..<block { guard try await request() == Item(id: 7, name: "Item 7") else { throw BenchmarkError("wrong item") } }
    }
    var perCall = [[Double]](repeating: [], count: requests.count)
    let order = interleavedOrder(contenders: requests.count, rounds: rounds, block: 1, seed: 50)
    for round in 0..<rounds {
        for contender in order[(round * requests.count)..<((round + 1) * requests.count)] {
            let start = ContinuousClock.now
            for _ in 0..<block { _ = try await requests[contender]() }
            perCall[contender].append(microseconds(ContinuousClock.now - start) / Double(block))
        }
    }
    print("== \(title): \(rounds) rounds of \(block) calls")
    print("call", "µs per call", "this / first", "first / this", separator: "\t")
    for index in requests.indices {
        let ratio = median(zip(perCall[index], perCall[0]).map { $0 / $1 })
        let inverse = median(zip(perCall[0], perCall[index]).map { $0 / $1 })
        print(
            names[index], String(format: "%.1f", median(perCall[index])), String(format: "%.3f", ratio), String(format: "%.1f", inverse),
            separator: "\t")
    }
}

let parked = DispatchSemaphore(value: 0)
Task.detached {
    do {
        switch mode {
        case "stores":
            let lookups = arguments.count > 2 ? Int(arguments[2]) ?? 5_000 : 5_000
            print("store", "answers", "lookup µs", "evicting save µs", separator: "\t")
            let only = arguments.count > 3 ? arguments[3] : nil
            let stores = only == "memory" ? ["in memory"] : only == "sqlite" ? ["SQLite"] : ["SQLite", "in memory"]
            let counts = arguments.count > 4 ? arguments[4...].compactMap { Int($0) } : [1_000, 100_000]
            var figures: [String: [Int: (lookup: Double, evict: Double)]] = [:]
            for count in counts {
                let limits = SavedAnswerLimits(maximumTotalBytes: 1 << 30, maximumEntryBytes: 1 << 20, maximumEntries: count)
                if stores.contains("SQLite") {
                    let sqlite = SQLiteAnswerStore(fileURL: try storeFile("stores-\(count)"), limits: limits, logger: nil)
                    figures["SQLite", default: [:]][count] = await measure(sqlite, count: count, lookups: lookups) { await sqlite.flush() }
                }
                if stores.contains("in memory") {
                    let memory = InMemorySavedAnswerStore(limits: limits)
                    figures["in memory", default: [:]][count] = await measure(memory, count: count, lookups: lookups) {}
                }
                for store in stores {
                    guard let figure = figures[store]?[count] else { continue }
                    print(store, count, String(format: "%.2f", figure.lookup), String(format: "%.2f", figure.evict), separator: "\t")
                }
            }
            for store in stores {
                guard let small = figures[store]?[1_000], let large = figures[store]?[100_000] else { continue }
                print(
                    "\(store): 100,000 / 1,000: lookup \(String(format: "%.2f", large.lookup / small.lookup)),",
                    "evicting save \(String(format: "%.2f", large.evict / small.evict))")
            }
        case "calls":
            guard arguments.count > 3, let rounds = Int(arguments[2]), let block = Int(arguments[3]) else {
                throw BenchmarkError("usage: SavedAnswerCosts calls <rounds> <block>")
            }
            let server = try SocketServer(body: envelope)
            let baseURL = URL(string: "http://127.0.0.1:\(server.port)")!
            let loopback = StreamingURLSessionTransport()
            let memory = MemoryTransport()
            for (title, transport) in [("over loopback (URLSession)", loopback as any ClientTransport), ("from memory", memory)] {
                let names = ["no saved answers", "the same again", "saved in memory", "saved in SQLite"]
                let stages: [SavedAnswers?] = [
                    nil, nil, SavedAnswers(), SavedAnswers(store: SQLiteAnswerStore(fileURL: try storeFile("calls"), logger: nil)),
                ]
                var requests: [@Sendable () async throws -> Item] = []
                for stage in stages {
                    let client = makeClient(baseURL, transport, stage)
                    requests.append { try await client.send(endpoint) }
                }
                try await report(title, names, requests, rounds: rounds, block: block)
            }
            var requests: [@Sendable () async throws -> Item] = []
            let online = makeClient(baseURL, loopback, nil)
            requests.append { try await online.send(endpoint) }
            for store in [SQLiteAnswerStore(fileURL: try storeFile("answering"), logger: nil), InMemorySavedAnswerStore()]
                as [any SavedAnswerStore]
            {
                // One call over loopback saves the answer; the offline client answers it from then on.
                _ = try await makeClient(baseURL, loopback, SavedAnswers(store: store)).send(endpoint)
                await (store as? SQLiteAnswerStore)?.flush()
                let offline = makeClient(baseURL, OfflineTransport(), SavedAnswers(store: store), retry: .never)
                let response = try await offline.response(for: endpoint)
                guard response.payload == Item(id: 7, name: "Item 7"), response.savedAnswer != nil else {
                    throw BenchmarkError("the offline call was not answered from the store")
                }
                requests.append { try await offline.send(endpoint) }
            }
            try await report(
                "answered from the store", ["loopback call", "answered from SQLite", "answered from memory"], requests, rounds: rounds,
                block: block)
        default:
            throw BenchmarkError("usage: SavedAnswerCosts stores [lookups] | calls <rounds> <block>")
        }
    } catch {
        print("SavedAnswerCosts: \(error)")
        exit(1)
    }
    exit(0)
}
parked.wait()
