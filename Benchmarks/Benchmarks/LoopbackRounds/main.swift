// Interleaved rounds of whole calls over loopback, as issue 49's outside harness measures them:
// each round runs every configuration's call `block` times in a row, the configurations in a
// shuffled order; each configuration's figure is the median over the rounds of its block's time
// over the first configuration's block in the same round. Beside the wall clock, the process's
// CPU time (user and system, every thread: the client's, the event loops' and the in-process
// server's) over the same blocks, which the machine's other work moves less than the wall clock,
// and the context switches a call costs: what callgrind's counts leave out (the kernel's work and
// the threads' wake-ups).
//
//   LoopbackRounds <asyncHTTPClient|urlSession> <rounds> <block> <configuration>...
//
// configuration: as `LoopbackCounts` takes them, or handWrittenOnDefaults (AsyncHTTPClient only):
// `StageSet.handWritten` on a client of AsyncHTTPClient's own default configuration, not
// `.backstop`'s, as an app without Backstop makes it. The first is the baseline. Every configuration
// shares one `HTTPClient`, and so one pooled connection, unless `CLIENTS=each` gives each its own,
// as a harness that makes a client per configuration does.

import AsyncHTTPClient
import Backstop
import BackstopAsyncHTTPClient
import ClientConfigurations
import Dispatch
import Foundation
import Interleaving
import Loopback
import OpenAPIRuntime

let arguments = CommandLine.arguments
guard arguments.count >= 5, arguments[1] == "asyncHTTPClient" || arguments[1] == "urlSession",
    let rounds = Int(arguments[2]), let block = Int(arguments[3]), rounds > 0, block > 0
else {
    print(
        "usage: LoopbackRounds <asyncHTTPClient|urlSession> <rounds> <block> <\(StageSet.caseNames)|delegateAPI|handWrittenOnDefaults>..."
    )
    exit(2)
}
let onAsyncHTTPClient = arguments[1] == "asyncHTTPClient"
let names = Array(arguments[4...])

/// The process's CPU time in microseconds, the part of it in the kernel, and its context
/// switches, every thread.
func usage() -> (cpu: Int, system: Int, switches: Int) {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let system = Int(usage.ru_stime.tv_sec) * 1_000_000 + Int(usage.ru_stime.tv_usec)
    let cpu = Int(usage.ru_utime.tv_sec) * 1_000_000 + Int(usage.ru_utime.tv_usec) + system
    return (cpu, system, Int(usage.ru_nvcsw) + Int(usage.ru_nivcsw))
}

let parked = DispatchSemaphore(value: 0)
Task.detached {
    do {
        let server = try await LocalServer.start()
        let clientEach = ProcessInfo.processInfo.environment["CLIENTS"] == "each"
        var client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .backstop)
        var transport: any ClientTransport =
            onAsyncHTTPClient ? HTTPClientTransport(client: client) : StreamingURLSessionTransport()
        var requests: [@Sendable () async throws -> Item] = []
        for name in names {
            if clientEach, !requests.isEmpty {
                client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .backstop)
                transport = onAsyncHTTPClient ? HTTPClientTransport(client: client) : StreamingURLSessionTransport()
            }
            if name == "delegateAPI", onAsyncHTTPClient {
                requests.append(try await DelegateAPICall.request(on: client, baseURL: server))
            } else if name == "handWrittenOnDefaults", onAsyncHTTPClient {
                let own = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init())
                requests.append(try await StageSet.handWritten.request(transport: HTTPClientTransport(client: own), baseURL: server))
            } else if let set = StageSet(named: name) {
                requests.append(try await set.request(transport: transport, baseURL: server))
            } else {
                throw BenchmarkFailure("no configuration \(name)")
            }
        }
        // Warmed up: a round of each before the rounds that count.
        for request in requests { for _ in 0..<block { _ = try await request() } }
        var wall = [[Double]](repeating: [], count: names.count)
        var cpu = [[Double]](repeating: [], count: names.count)
        var system = [[Double]](repeating: [], count: names.count)
        var switches = [[Double]](repeating: [], count: names.count)
        var calls = [[Double]](repeating: [], count: names.count)
        let order = interleavedOrder(contenders: names.count, rounds: rounds, block: 1, seed: 49)
        for round in 0..<rounds {
            for contender in order[(round * names.count)..<((round + 1) * names.count)] {
                let request = requests[contender]
                let before = usage()
                let start = ContinuousClock.now
                var each: [Double] = []
                each.reserveCapacity(block)
                for _ in 0..<block {
                    let callStart = ContinuousClock.now
                    _ = try await request()
                    each.append(Double((ContinuousClock.now - callStart) / .nanoseconds(1)) / 1000)
                }
                let elapsed = ContinuousClock.now - start
                calls[contender].append(median(each))
                let after = usage()
                wall[contender].append(Double(elapsed / .nanoseconds(1)) / 1000 / Double(block))
                cpu[contender].append(Double(after.cpu - before.cpu) / Double(block))
                system[contender].append(Double(after.system - before.system) / Double(block))
                switches[contender].append(Double(after.switches - before.switches) / Double(block))
            }
        }
        func ratios(_ times: [[Double]], _ index: Int) -> Double {
            median(zip(times[index], times[0]).map { $0 / $1 })
        }
        let width = max(names.map(\.count).max() ?? 0, 13)
        print(
            "configuration".padding(toLength: width, withPad: " ", startingAt: 0),
            "wall µs", "wall ratio", "call p50 ratio", "cpu µs", "cpu ratio", "system µs", "switches", separator: "\t")
        for index in names.indices {
            print(
                names[index].padding(toLength: width, withPad: " ", startingAt: 0),
                String(format: "%.1f", median(wall[index])), String(format: "%.3f", ratios(wall, index)),
                String(format: "%.3f", ratios(calls, index)),
                String(format: "%.1f", median(cpu[index])), String(format: "%.3f", ratios(cpu, index)),
                String(format: "%.1f", median(system[index])), String(format: "%.2f", median(switches[index])), separator: "\t")
        }
    } catch {
        print("LoopbackRounds: \(error)")
        exit(1)
    }
    exit(0)
}
parked.wait()
