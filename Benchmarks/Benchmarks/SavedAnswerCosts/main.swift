// Issue 50 item 9: what saved answers cost, side by side in one process.
//
//   SavedAnswerCosts stores [lookups]          lookup and eviction at 1,000 and 100,000 answers
//   SavedAnswerCosts answering <rounds> <block> a call answered from the store against a loopback call
//
// `stores`: each store (SQLite, in memory) is filled to 1,000 and to 100,000 answers of 200 bytes
// (the most it keeps), then timed: `lookups` lookups of keys drawn at random (seeded), and 300
// saves of a new answer that each evict the least recently used one, each save timed until the
// store has written it (`flush()`; the in-memory store's save is the whole of it). Prints the
// medians and the 100,000 / 1,000 ratio: flat is near 1.
//
// `answering`: the `APIClient` call of `StageSet.apiClient` (`GET /items/7` over loopback on
// AsyncHTTPClient, a 55-byte envelope) against the same call answered from the store because the
// network is gone (a transport that fails at once as offline; no retry, which would wait), with
// the SQLite store and with the in-memory one, interleaved in shuffled rounds of `block` calls.
// Prints each one's median per call and the loopback call over it.

import AsyncHTTPClient
import Backstop
import BackstopAsyncHTTPClient
import BackstopSQLite
import ClientConfigurations
import Dispatch
import Foundation
import Interleaving
import Loopback
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

let parked = DispatchSemaphore(value: 0)
Task.detached {
    do {
        switch mode {
        case "stores":
            let lookups = arguments.count > 2 ? Int(arguments[2]) ?? 5_000 : 5_000
            print("store", "answers", "lookup µs", "evicting save µs", separator: "\t")
            var figures: [String: [Int: (lookup: Double, evict: Double)]] = [:]
            for count in [1_000, 100_000] {
                let limits = SavedAnswerLimits(maximumTotalBytes: 1 << 30, maximumEntryBytes: 1 << 20, maximumEntries: count)
                let sqlite = SQLiteAnswerStore(fileURL: try storeFile("stores-\(count)"), limits: limits, logger: nil)
                figures["SQLite", default: [:]][count] = await measure(sqlite, count: count, lookups: lookups) { await sqlite.flush() }
                let memory = InMemorySavedAnswerStore(limits: limits)
                figures["in memory", default: [:]][count] = await measure(memory, count: count, lookups: lookups) {}
                for store in ["SQLite", "in memory"] {
                    let figure = figures[store]![count]!
                    print(store, count, String(format: "%.2f", figure.lookup), String(format: "%.2f", figure.evict), separator: "\t")
                }
            }
            for store in ["SQLite", "in memory"] {
                let small = figures[store]![1_000]!
                let large = figures[store]![100_000]!
                print(
                    "\(store): 100,000 / 1,000: lookup \(String(format: "%.2f", large.lookup / small.lookup)),",
                    "evicting save \(String(format: "%.2f", large.evict / small.evict))")
            }
        case "answering":
            guard arguments.count > 3, let rounds = Int(arguments[2]), let block = Int(arguments[3]) else {
                throw BenchmarkFailure("usage: SavedAnswerCosts answering <rounds> <block>")
            }
            let server = try await LocalServer.start()
            let transport = HTTPClientTransport(
                client: HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .backstop))
            let loopback = try await StageSet.apiClient.request(transport: transport, baseURL: server)
            let endpoint = Endpoint<Item, NoModuleCodes>(.get, "items/7")
            var requests: [@Sendable () async throws -> Item] = [loopback]
            let stores: [any SavedAnswerStore] = [
                SQLiteAnswerStore(fileURL: try storeFile("answering"), logger: nil), InMemorySavedAnswerStore(),
            ]
            for store in stores {
                guard var pipeline = StageSet.apiClient.pipeline() else { throw BenchmarkFailure("no pipeline") }
                pipeline.retry = .never
                pipeline.savedAnswers = SavedAnswers(store: store)
                // One call over loopback saves the answer; the offline client answers it from then on.
                let online = APIClient<NoModuleCodes>(baseURL: server, contract: backendB, pipeline: pipeline, transport: transport)
                _ = try await online.send(endpoint)
                await (store as? SQLiteAnswerStore)?.flush()
                let offline = APIClient<NoModuleCodes>(
                    baseURL: server, contract: backendB, pipeline: pipeline, transport: OfflineTransport())
                guard try await offline.send(endpoint) == Item(id: 7, name: "Item 7") else { throw BenchmarkFailure("wrong saved item") }
                requests.append { try await offline.send(endpoint) }
            }
            let names = ["loopback call", "answered from SQLite", "answered from memory"]
            for request in requests { for _ in 0..<block { _ = try await request() } }
            var perCall = [[Double]](repeating: [], count: requests.count)
            let order = interleavedOrder(contenders: requests.count, rounds: rounds, block: 1, seed: 50)
            for round in 0..<rounds {
                for contender in order[(round * requests.count)..<((round + 1) * requests.count)] {
                    let start = ContinuousClock.now
                    for _ in 0..<block { _ = try await requests[contender]() }
                    perCall[contender].append(microseconds(ContinuousClock.now - start) / Double(block))
                }
            }
            print("call", "µs per call (median of rounds)", "loopback / this", separator: "\t")
            for index in requests.indices {
                let ratio = median(zip(perCall[0], perCall[index]).map { $0 / $1 })
                print(names[index], String(format: "%.1f", median(perCall[index])), String(format: "%.1f", ratio), separator: "\t")
            }
        default:
            throw BenchmarkFailure("usage: SavedAnswerCosts stores [lookups] | answering <rounds> <block>")
        }
    } catch {
        print("SavedAnswerCosts: \(error)")
        exit(1)
    }
    exit(0)
}
parked.wait()
