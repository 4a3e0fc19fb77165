/// The order in which interleaved benchmarks run their contenders: `rounds` rounds, each running
/// every one of `contenders` `block` times in a row, the contenders in a shuffled order.
///
/// Shuffled, not rotated: in a fixed rotation each contender always follows the same one and
/// pays for what that one leaves behind (hedging's timers, the memory of a large body). Seeded,
/// so every run shuffles alike.
public func interleavedOrder(contenders: Int, rounds: Int, block: Int = 1, seed: UInt64) -> [Int] {
    var generator = SplitMix64(seed: seed)
    var order: [Int] = []
    order.reserveCapacity(contenders * rounds * block)
    for _ in 0..<rounds {
        for contender in (0..<contenders).shuffled(using: &generator) {
            order.append(contentsOf: repeatElement(contender, count: block))
        }
    }
    return order
}

/// The middle value of `times` (the upper one of an even count); `times` must not be empty.
public func median<Time: Comparable>(_ times: [Time]) -> Time {
    times.sorted()[times.count / 2]
}
