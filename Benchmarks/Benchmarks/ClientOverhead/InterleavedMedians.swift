import Benchmark
import Interleaving

/// Each of `requests`' median time over `rounds` rounds, each round running every request
/// `block` times in a row, the requests in a shuffled order (``interleavedOrder(contenders:rounds:block:seed:)``).
///
/// A block of one interleaves request by request, so drift touches every contender alike, but
/// each request also runs beside what the previous one, of another contender, left still running
/// (a task ending on an event loop, say); a block of 150, as an app sends one kind of call after
/// another, pays for that once per block.
func interleavedMedians(of requests: [Request], rounds: Int, block: Int = 1, seed: UInt64) async throws -> [Duration] {
    var times = [[Duration]](repeating: [], count: requests.count)
    for contender in interleavedOrder(contenders: requests.count, rounds: rounds, block: block, seed: seed) {
        let start = ContinuousClock.now
        blackHole(try await requests[contender]())
        times[contender].append(ContinuousClock.now - start)
    }
    return times.map(median)
}
