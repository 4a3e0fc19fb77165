import Benchmark

/// Each of `requests`' median time over `rounds` rounds, each round running every request once
/// in a shuffled order.
///
/// Shuffled, not rotated: in a fixed rotation each contender always follows the same one and
/// pays for what that one leaves behind (hedging's timers, the memory of a large body). Seeded,
/// so every run shuffles alike.
func interleavedMedians(of requests: [Request], rounds: Int, seed: UInt64) async throws -> [Duration] {
    var times = [[Duration]](repeating: [], count: requests.count)
    var generator = SplitMix64(seed: seed)
    for _ in 0..<rounds {
        for contender in requests.indices.shuffled(using: &generator) {
            let start = ContinuousClock.now
            blackHole(try await requests[contender]())
            times[contender].append(ContinuousClock.now - start)
        }
    }
    return times.map { $0.sorted()[$0.count / 2] }
}
