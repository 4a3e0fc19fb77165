// Makes one configuration's call a given number of times over loopback, to a Hummingbird server
// in this process, for `valgrind --tool=callgrind` to count the instructions per call
// (`Benchmarks/loopback-instructions.sh` runs it): what a whole call costs the CPU, the client's
// work, the server's and the transport's, in every thread, without the timed benchmarks'
// scheduling noise. The kernel's work (sockets, wake-ups) is not counted.
//
//   LoopbackCounts <transport> <configuration> <calls>
//
// transport: asyncHTTPClient (`HTTPClientTransport` on `HTTPClient(configuration: .backstop)`)
// or urlSession (`StreamingURLSessionTransport()`).
// configuration: the case name of a `StageSet` (handWritten, apiClient, everyStage, ...), its raw
// value, or delegateAPI (`DelegateAPICall`, on asyncHTTPClient only).
//
// Not an async `main`, for the reason PipelineCounts gives.

import AsyncHTTPClient
import Backstop
import BackstopAsyncHTTPClient
import ClientConfigurations
import Dispatch
import Foundation
import Loopback

let arguments = CommandLine.arguments
let onAsyncHTTPClient = arguments.count == 4 && arguments[1] == "asyncHTTPClient"
let onURLSession = arguments.count == 4 && arguments[1] == "urlSession"
let set = arguments.count == 4 ? StageSet(named: arguments[2]) : nil
let onDelegateAPI = onAsyncHTTPClient && arguments[2] == "delegateAPI"
guard onAsyncHTTPClient || onURLSession, set != nil || onDelegateAPI, let calls = Int(arguments[3]) else {
    print("usage: LoopbackCounts <asyncHTTPClient|urlSession> <\(StageSet.caseNames)|delegateAPI> <calls>")
    exit(2)
}
// Detached: top-level code is on the main actor, whose thread parks below until the task ends the
// process.
let parked = DispatchSemaphore(value: 0)
Task.detached {
    do {
        let server = try await LocalServer.start()
        let request: @Sendable () async throws -> Item
        if onAsyncHTTPClient {
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .backstop)
            if let set {
                request = try await set.request(transport: HTTPClientTransport(client: client), baseURL: server)
            } else {
                request = try await DelegateAPICall.request(on: client, baseURL: server)
            }
        } else if let set {
            request = try await set.request(transport: StreamingURLSessionTransport(), baseURL: server)
        } else {
            throw BenchmarkFailure("no configuration")
        }
        // Made and checked with one call; the count for 1 call is subtracted from the count for 1 + N.
        for _ in 1..<max(calls, 1) { _ = try await request() }
    } catch {
        print("LoopbackCounts: \(error)")
        exit(1)
    }
    // The server and the client are never shut down: the process ends here.
    exit(0)
}
parked.wait()
