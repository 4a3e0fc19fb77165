// Makes one configuration's call a given number of times over the in-memory transport, for
// `valgrind --tool=callgrind` to count the instructions per call (`Benchmarks/pipeline-instructions.sh`
// runs it): the CPU the pipeline's stages cost, in every thread the call touches, free of the
// machine's load and of the network.
//
//   PipelineCounts <configuration> <calls>
//
// configuration: the case name of a `StageSet` (handWritten, apiClient, everyStage, withoutTimeout, ...)
// or its raw value ("raw+Foundation", "APIClient", "every stage", ...).
//
// Not an async `main`: valgrind 3.19 stops with an internal error when the main thread parks in
// `rt_sigsuspend`, as Swift 6.3's main executor does on Linux. The calls run in a task; the main
// thread waits for it on a semaphore.

import ClientConfigurations
import Dispatch
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3, let calls = Int(arguments[2]), let set = StageSet(named: arguments[1]) else {
    print("usage: PipelineCounts <\(StageSet.caseNames)> <calls>")
    exit(2)
}
let done = DispatchSemaphore(value: 0)
// Detached: top-level code is on the main actor, whose thread waits below.
Task.detached {
    do {
        // Made and checked with one call; the count for 1 call is subtracted from the count for 1 + N.
        let request = try await set.request(
            transport: InMemoryTransport(payload: Item(id: 7, name: "Item 7")), baseURL: InMemoryTransport.baseURL)
        for _ in 1..<max(calls, 1) { _ = try await request() }
    } catch {
        print("PipelineCounts: \(error)")
        exit(1)
    }
    done.signal()
}
done.wait()
